/**
 * Typed access to the parts of dynalite@4.0.0 (pinned exactly in package.json) that the
 * transaction layer builds on. dynalite ships no type declarations and is CommonJS, so it is
 * loaded through `createRequire`; the interfaces below describe only what is used here.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A DynamoDB attribute value in wire (JSON) form, e.g. `{ S: 'x' }`, `{ N: '1' }`. */
export type AttributeValue = Record<string, unknown>;
export type Item = Record<string, AttributeValue>;

/** dynalite's error convention: anything with statusCode + body is sent to the client as is. */
export interface DynaliteError extends Error {
  statusCode?: number;
  body?: { __type: string; message?: string; Message?: string; [k: string]: unknown };
}

export type Callback<T> = (err: DynaliteError | null | undefined, value?: T) => void;

/** `lock` package (dominictarr/lock) as attached to every dynalite sub-db. */
export type Releaser = <F extends (...args: never[]) => unknown>(done: F) => F;
export type LockFn = (key: string | string[], exec: (release: Releaser) => void) => void;

export interface SubDb {
  get(key: string, cb: (err: DynaliteError | null, value?: Item) => void): void;
  put(key: string, value: unknown, cb: (err?: DynaliteError | null) => void): void;
  del(key: string, cb: (err?: DynaliteError | null) => void): void;
  createValueStream(options?: Record<string, unknown>): NodeJS.ReadableStream;
  lock: LockFn;
}

export interface BatchOp {
  type: 'put' | 'del';
  key: string;
  value?: unknown;
}

export interface MainDb {
  batch(ops: BatchOp[], cb: (err?: Error | null) => void): void;
  open(): Promise<void>;
  keys(options?: Record<string, unknown>): AsyncIterable<string>;
}

export interface KeySchemaElement {
  AttributeName: string;
  KeyType: 'HASH' | 'RANGE';
}

export interface IndexDescription {
  IndexName: string;
  KeySchema: KeySchemaElement[];
  Projection: { ProjectionType?: string; NonKeyAttributes?: string[] };
  IndexStatus?: string;
}

export interface TableDescription {
  TableName: string;
  TableStatus: string;
  KeySchema: KeySchemaElement[];
  AttributeDefinitions: { AttributeName: string; AttributeType: string }[];
  GlobalSecondaryIndexes?: IndexDescription[];
  LocalSecondaryIndexes?: IndexDescription[];
  [k: string]: unknown;
}

export interface StoreOptions {
  maxItemSize: number;
  [k: string]: unknown;
}

/** What dynalite's item actions (putItem, updateItem, deleteItem, getItem) use of a store. */
export interface ActionStore {
  options: StoreOptions;
  getItemDb(tableName: string): Pick<SubDb, 'get' | 'put' | 'del' | 'lock'>;
  getIndexDb(indexType: string, tableName: string, indexName: string): Pick<SubDb, 'get' | 'put' | 'del' | 'lock'>;
  getTable(name: string, cb: Callback<TableDescription>): void;
}

/** The object returned by dynalite's `db.create(options)`, handed to every action. */
export interface Store extends ActionStore {
  options: StoreOptions;
  db: MainDb;
  tableDb: SubDb;
  getItemDb(tableName: string): SubDb;
  getIndexDb(indexType: string, tableName: string, indexName: string): SubDb;
  getTable(name: string, cb: Callback<TableDescription>): void;
}

/** A parsed operation request after dynalite's validation (`_condition`, `_updates`, `_projection` added). */
export type OpData = Record<string, unknown>;

export interface DbModule {
  create(options: Record<string, unknown>): Store;
  checkConditional(data: OpData, existingItem: Item | undefined): DynaliteError | null | undefined;
  validateKey(key: Item, table: TableDescription): DynaliteError | null | undefined;
  validateItem(item: Item, table: TableDescription): DynaliteError | null | undefined;
  validateUpdates(attributeUpdates: unknown, expressionUpdates: unknown, table: TableDescription): DynaliteError | null | undefined;
  createKey(item: Item, table: TableDescription): string;
  validationError(message: string): DynaliteError;
  capacityUnits(item: Item | undefined | null, isRead?: boolean, isConsistent?: boolean): number;
}

export interface ActionValidation {
  types: Record<string, unknown>;
  custom?: (data: OpData, store: Store) => string | undefined;
}

export interface ValidationsModule {
  checkTypes(data: unknown, types: Record<string, unknown>): OpData;
  checkValidations(
    data: OpData,
    types: Record<string, unknown>,
    custom: ((data: OpData, store: Store) => string | undefined) | undefined,
    store: Store,
  ): void;
}

export type Action = (store: ActionStore, data: OpData, cb: Callback<Record<string, unknown>>) => void;

export interface DynaliteServerOptions {
  path?: string;
  createTableMs?: number;
  deleteTableMs?: number;
  updateTableMs?: number;
}

export type DynaliteFactory = (options: DynaliteServerOptions) => import('node:http').Server;

export const dynalite = require('dynalite') as DynaliteFactory;
export const db = require('dynalite/db') as DbModule;
export const validations = require('dynalite/validations') as ValidationsModule;

export const actions = {
  putItem: require('dynalite/actions/putItem') as Action,
  updateItem: require('dynalite/actions/updateItem') as Action,
  deleteItem: require('dynalite/actions/deleteItem') as Action,
  getItem: require('dynalite/actions/getItem') as Action,
};

export const actionValidations = {
  putItem: require('dynalite/validations/putItem') as ActionValidation,
  updateItem: require('dynalite/validations/updateItem') as ActionValidation,
  deleteItem: require('dynalite/validations/deleteItem') as ActionValidation,
  getItem: require('dynalite/validations/getItem') as ActionValidation,
};

/**
 * Key prefixes of dynalite's sub-dbs inside the single LevelDB (see `getSubDb` in
 * dynalite/db/index.js: `'item-' + table`, `'index-' + type + '~' + table + '~' + index`, each
 * followed by '~'). Needed to commit a transaction as ONE LevelDB batch across sub-dbs.
 */
export const subDbPrefix = {
  table: 'table~',
  item: (tableName: string) => `item-${tableName}~`,
  tag: (tableName: string) => `tag-${tableName}~`,
  index: (indexType: string, tableName: string, indexName: string) =>
    `index-${indexType.toLowerCase()}~${tableName}~${indexName}~`,
  /** common prefix of all indexes of one type of a table (table names cannot contain '~') */
  indexesOf: (indexType: string, tableName: string) => `index-${indexType.toLowerCase()}~${tableName}~`,
};

/**
 * Creates a dynalite HTTP server and returns it together with the store its request handler is
 * bound to. dynalite does not expose the store, so `db.create` is wrapped for the duration of the
 * (synchronous) factory call; the module object is shared with dynalite's own `require('./db')`.
 */
export function createDynaliteWithStore(options: DynaliteServerOptions): { server: import('node:http').Server; store: Store } {
  const originalCreate = db.create;
  let captured: Store | undefined;
  db.create = (opts) => {
    captured = originalCreate(opts);
    return captured;
  };
  let server: import('node:http').Server;
  try {
    server = dynalite(options);
  } finally {
    db.create = originalCreate;
  }
  if (!captured) throw new Error('dynalite did not create its store through db.create; internals changed?');
  return { server, store: captured };
}
