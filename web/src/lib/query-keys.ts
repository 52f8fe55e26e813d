/** React Query keys, in one place so invalidations match the queries. */
export const queryKeys = {
  companies: ['companies'] as const,
  profile: ['profile'] as const,
  invitation: (token: string) => ['invitation', token] as const,
};
