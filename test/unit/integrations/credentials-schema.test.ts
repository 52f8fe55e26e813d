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

describe('credentials: lengths', () => {
  it('says how long a field may be in the product words, as sent raw and as the kind checks it', async () => {
    const { credentialInputSchema, HOST_MAX } = await import('../../../shared/schemas/integrations');
    const { SQL_MAPPING_DEFAULTS, sqlMappingSchema } = await import('../../../shared/schemas/master-data-sync');
    const long = 'h'.repeat(HOST_MAX + 1);
    expect(credentialInputSchema.safeParse({ host: long }).error?.issues[0]?.message).toBe(`At most ${HOST_MAX} characters`);
    expect(serverCredentialsSchema.safeParse({ ...base, host: long }).error?.issues[0]?.message).toBe(`At most ${HOST_MAX} characters`);
    expect(credentialInputSchema.safeParse({ database: 'd'.repeat(129) }).error?.issues[0]?.message).toBe('At most 128 characters');
    // a table name longer than any database takes
    const mapping = { ...SQL_MAPPING_DEFAULTS, items: { ...SQL_MAPPING_DEFAULTS.items, table: 't'.repeat(128) } };
    expect(sqlMappingSchema.safeParse(mapping).error?.issues[0]?.message).toBe('At most 127 characters');
  });
});
