/** The id of an email record: one per received message and company (the redelivery marker, E2). */
import { digest } from '../documents/files';

export function emailIdOf(mail: { message_id: string | null; content_hash: string }, companyId: string): string {
  return digest(`${mail.message_id ?? ''}\n${mail.content_hash}\n${companyId}`);
}
