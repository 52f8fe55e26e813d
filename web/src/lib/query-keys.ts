/** React Query keys, in one place so invalidations match the queries. */
export const queryKeys = {
  companies: ['companies'] as const,
  profile: ['profile'] as const,
  invitation: (token: string) => ['invitation', token] as const,
  /** Everything about documents: lists, single receipts, previews, totals. */
  receipts: ['receipts'] as const,
  /** Every document list (all statuses, filters and scopes). */
  receiptLists: ['receipts', 'list'] as const,
  /** One document list: `params` is the list's identity (scope, status, filters), see features/receipts/lib/list-params. */
  receiptList: (params: Record<string, unknown>) => ['receipts', 'list', params] as const,
  receipt: (receiptId: string, companyId?: string) => ['receipts', 'detail', receiptId, companyId ?? null] as const,
  receiptPreview: (receiptId: string, companyId?: string) => ['receipts', 'preview', receiptId, companyId ?? null] as const,
  totalDocuments: (scope: string) => ['receipts', 'total-documents', scope] as const,
  companyUsers: (companyId: string) => ['company-users', companyId] as const,
  /** The caller's own member card (GET /company/users/me); under companyUsers, so refreshing the team refreshes it. */
  ownCompanyUser: (companyId: string) => ['company-users', companyId, 'me'] as const,
  companyInvitations: (companyId: string) => ['company-invitations', companyId] as const,
  email: (emailId: string, companyId?: string) => ['email', emailId, companyId ?? null] as const,
  /** The mail one company received (GET /emails, page by page), as Settings lists it. */
  companyEmails: (companyId: string) => ['company-emails', companyId] as const,
  // Master data: suppliers, customers, categories, items
  /** Everything about master data: the four lists and the category choices. */
  masterData: ['master-data'] as const,
  /** One master-data list: `params` is its identity (kind, search, scope), see features/master-data/lib/screens. */
  masterDataList: (params: Record<string, unknown>) => ['master-data', 'list', params] as const,
  /** The categories a dropdown offers for one company and search text. */
  categoryOptions: (companyId: string, search: string) => ['master-data', 'category-options', companyId, search] as const,
};
