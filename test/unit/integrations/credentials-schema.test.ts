import { describe, expect, it } from 'vitest';
import { PORT_RANGE_MESSAGE, serverCredentialsSchema } from '../../../shared/schemas/integrations';

const base = { host: 'ftp.example.com', user: 'demo', password: 'secret' };
const portMessage = (port: unknown) => {
  const parsed = serverCredentialsSchema.safeParse({ ...base, port });
  return parsed.success ? null : parsed.error.issues.find((i) => i.path[0] === 'port')?.message;
};

describe('server credentials: Port', () => {
  it('takes no port, or a port of 1 to 65535 typed or sent as a number', () => {
    expect(serverCredentialsSchema.parse({ ...base }).port).toBeUndefined();
    expect(serverCredentialsSchema.parse({ ...base, port: '' }).port).toBeUndefined();
    expect(serverCredentialsSchema.parse({ ...base, port: ' 2121 ' }).port).toBe(2121);
    expect(serverCredentialsSchema.parse({ ...base, port: 65535 }).port).toBe(65535);
    expect(serverCredentialsSchema.parse({ ...base, port: '1' }).port).toBe(1);
  });

  it("says 'Not a number' of what is not one, and the range of a number that is no port", () => {
    expect(portMessage('abc')).toBe('Not a number');
    expect(portMessage('21.5')).toBe('Not a number');
    expect(portMessage('70000')).toBe(PORT_RANGE_MESSAGE);
    expect(portMessage(0)).toBe('Enter a port from 1 to 65535');
    expect(portMessage('65536')).toBe('Enter a port from 1 to 65535');
  });
});
