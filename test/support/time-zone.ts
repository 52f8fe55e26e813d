import { afterAll, beforeAll } from 'vitest';

/** Runs the enclosing describe block in a fixed time zone (the machine's is given back after it). */
export function inTimeZone(zone: string): void {
  const machineZone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = zone;
  });
  afterAll(() => {
    if (machineZone === undefined) delete process.env.TZ;
    else process.env.TZ = machineZone;
  });
}
