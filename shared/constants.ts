/** Business constants and limits from the specification (rules.md section 9). */
export const LIST_PAGE_SIZE = 50;
export const INFO_POPUP_MS = 3000;
export const SEARCH_DEBOUNCE_MS = 1000;
export const AUTOSAVE_MS = 2000;
export const COMPANY_SELECT_REDIRECT_MS = 2500;
export const WS_PING_MS = 300_000;
export const BADGE_CAP = 999;
/**
 * Fields of a company that differ from member to member (the member's own `role`). A `company` live event goes to
 * every member's screens, so it never carries them, and a screen keeps its own (docs/decisions.md, live channel).
 */
export const PER_MEMBER_COMPANY_FIELDS = ['role'] as const;
export const LINE_SNAP_PX = 6;
/** A scroll to a place on the screen is animated over 350 ms, in steps of 20 ms. */
export const SCROLL_ANIMATION_MS = 350;
export const SCROLL_STEP_MS = 20;

export const XLSX_MAX_BYTES = 10_485_760;
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const DOCUMENT_MAX_BYTES = 31_457_280;

export const CUSTOM_MESSAGE_MAX = 1000;
export const PASSWORD_MIN = 8;
export const CONFIRMATION_CODE_MIN = 4;
export const NAME_MIN = 2;
export const EMAIL_PREFIX_MIN = 4;
export const EMAIL_PREFIX_MAX = 40;
export const COMPANY_NAME_MAX = 80;
/** A person's name or surname (profile, sign-up, team). */
export const PERSON_NAME_MAX = 80;
export const COMPANY_CODE_MAX = 80;
export const COUNT_MAX_LENGTH = 5;
export const VAT_ACCOUNT_MAX = 10;

/** Monthly documents a new company may process until a platform admin changes it. */
export const DEFAULT_AVAILABLE_DOCUMENTS = 500;

export const STORAGE_KEYS = {
  activeCompany: 'active_company',
  allCompanies: 'active_all_companies',
  /** The user the two choices above are of: another user signing in on the browser starts without them. */
  activeCompanyUser: 'active_company_user',
} as const;

export const EMAIL_IN_DOMAIN = 'in.receipts.local';

// Email-in (documents arriving by mail; docs/decisions.md "Email-in").
/** Objects under this prefix of the documents bucket are raw inbound messages (SES's S3 action, the local SMTP server). */
export const EMAIL_IN_PREFIX = 'inbound/';
/** The largest message accepted (SES's own limit for receiving, headers and encoding included). */
export const EMAIL_MAX_BYTES = 40 * 1024 * 1024;
/** Attachments of one message that become documents; the rest are listed on the email as not taken. */
export const EMAIL_MAX_ATTACHMENTS = 20;
/** Forwarded messages (.eml inside a mail) are opened this many levels deep. */
export const EMAIL_MAX_FORWARD_DEPTH = 3;
/** Characters of the message text kept on the email record. */
export const EMAIL_TEXT_MAX = 20_000;
/** Platform admin: the Cognito group whose members are global admins (AWS; the `cognito:groups` claim). */
export const GLOBAL_ADMIN_GROUP = 'global-admins';

/** Master data (rules.md 9): date formats a supplier or customer prints, in the spec's order. */
export const STAKEHOLDER_DATE_FORMATS = ['YYYY-MM-DD', 'YYYY/MM/DD', 'MM/DD/YYYY', 'DD/MM/YYYY'] as const;
/** Longest free-text field of master data (names, streets, codes are shorter in practice). */
export const MASTER_TEXT_MAX = 255;
/** Words of one item (used to match line items). */
export const ITEM_WORDS_MAX = 50;

// Team and invitations
/** An invitation link can be used once, within this many days. */
export const INVITATION_VALID_DAYS = 7;
/**
 * The invitations one company may mail in a UTC day. Each is an e-mail the product sends to an address a user typed:
 * the cap keeps one company (or a stolen administrator session) from spending the mail service's sending quota and
 * reputation, which every company shares.
 */
export const INVITATIONS_PER_DAY = 100;

// Hardening: ids the API accepts in bodies and query lists are bounded (document ids are 26 characters).
export const DOCUMENT_ID_MAX = 64;
