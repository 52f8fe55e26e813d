/** The only place where key values of the single table are built. See docs/data-model.md. */
export const keys = {
  userProfile: (userId: string) => ({ pk: `USER#${userId}`, sk: 'PROFILE' }),
  userByEmailIndex: (email: string) => ({ gsi1pk: `EMAIL#${email.trim().toLowerCase()}`, gsi1sk: 'USER' }),
  membership: (userId: string, companyId: string) => ({ pk: `USER#${userId}`, sk: `MEMBER#${companyId}` }),
  membershipsOfUser: (userId: string) => ({ pk: `USER#${userId}`, skPrefix: 'MEMBER#' }),
  memberOfCompanyIndex: (companyId: string, userId: string) => ({
    gsi1pk: `COMPANY#${companyId}#MEMBERS`,
    gsi1sk: `MEMBER#${userId}`,
  }),
  company: (companyId: string) => ({ pk: `COMPANY#${companyId}`, sk: 'META' }),
  companiesIndex: (createdAt: string, companyId: string) => ({ gsi2pk: 'COMPANIES', gsi2sk: `${createdAt}#${companyId}` }),
  companyCounts: (companyId: string, receiptType: 'receipt' | 'invoice') => ({
    pk: `COMPANY#${companyId}`,
    sk: `COUNTS#${receiptType}`,
  }),
  companyUsage: (companyId: string, month: string) => ({ pk: `COMPANY#${companyId}`, sk: `USAGE#${month}` }),
  emailIn: (address: string) => ({ pk: `EMAILIN#${address.toLowerCase()}`, sk: 'EMAILIN' }),
  connection: (connectionId: string) => ({ pk: `CONN#${connectionId}`, sk: 'META' }),
  connectionItems: (connectionId: string) => ({ pk: `CONN#${connectionId}` }),
  connectionSubscription: (connectionId: string, companyId: string) => ({
    pk: `CONN#${connectionId}`,
    sk: `SUB#${companyId}`,
  }),
  connectionOfCompanyIndex: (companyId: string, connectionId: string) => ({
    gsi1pk: `COMPANY#${companyId}#CONNS`,
    gsi1sk: `CONN#${connectionId}`,
  }),
} as const;

export type Key = { pk: string; sk: string };
