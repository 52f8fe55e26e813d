/**
 * Which office converter the processing job uses: on AWS (OFFICE_CONVERTER_FUNCTION set by CDK) the office converter
 * function, a container image with LibreOffice (loaded on first use, so local mode never loads the Lambda client);
 * elsewhere LibreOffice in-process where it is installed (SOFFICE_PATH, else soffice on PATH). Both run the same
 * LibreOfficeConverter, so a user sees the same page images in both modes.
 */
import type { FileStore, OfficeConverter } from '../../core/documents/ports';
import { handlerNeeds } from '../../../shared/routes';
import { LibreOfficeConverter } from '../../adapters/libreoffice';
import { env } from '../../runtime/env';
import { requireNeed } from '../../runtime/lazy-adapters';
import type { Logger } from '../../runtime/logger';

const libreOffice = new LibreOfficeConverter();

/** The office converter of a job (`who`: its handler path, whose declared needs must include officeConverter on AWS). */
export function officeConverter(files: FileStore, who: string, log: Logger): OfficeConverter {
  const functionName = env().OFFICE_CONVERTER_FUNCTION;
  if (!functionName) return libreOffice;
  return {
    async toPdf(bytes, fileName) {
      requireNeed({ needs: new Set(handlerNeeds[who] ?? []), who }, ['officeConverter'], 'the office converter');
      const { LambdaOfficeConverter } = await import('../../adapters/office-converter/lambda-office-converter');
      return new LambdaOfficeConverter({ files, functionName, log }).toPdf(bytes, fileName);
    },
  };
}
