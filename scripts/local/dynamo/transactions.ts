/**
 * TransactWriteItems / TransactGetItems on top of dynalite's own code.
 *
 * - Request shape/type checks: dynalite's `validations.checkTypes` + `checkValidations` with type
 *   specs assembled from dynalite's putItem/updateItem/deleteItem/getItem specs; expressions are
 *   parsed by those actions' own `custom` validators (which set `_condition`, `_updates`, ...).
 * - Serialisation: the per-item locks dynalite's own write actions take (`itemDb.lock`), so a
 *   transaction excludes concurrent PutItem/UpdateItem/DeleteItem/BatchWriteItem on its items.
 * - Conditions: `db.checkConditional` against the items read under those locks.
 * - Effects: dynalite's putItem/updateItem/deleteItem actions run against a *staging* store that
 *   serves the locked snapshot and records the item + secondary-index writes instead of applying
 *   them; the recorded writes of all items are then committed as ONE LevelDB batch (atomic).
 */
import {
  actions,
  actionValidations,
  db,
  subDbPrefix,
  validations,
  type Action,
  type ActionStore,
  type BatchOp,
  type DynaliteError,
  type Item,
  type OpData,
  type Store,
  type TableDescription,
} from './dynalite-internals';

const NS = 'com.amazonaws.dynamodb.v20120810#';
export const MAX_TRANSACT_ITEMS = 100;
const IDEMPOTENCY_WINDOW_MS = 10 * 60 * 1000;

type WriteKind = 'ConditionCheck' | 'Put' | 'Update' | 'Delete';
const WRITE_KINDS: readonly WriteKind[] = ['ConditionCheck', 'Put', 'Update', 'Delete'];

export interface CancellationReason {
  Code: string;
  Message?: string;
  Item?: Item;
}

// ---------------------------------------------------------------------------------------------
// Request type specs (dynalite's validation DSL), built from dynalite's own per-action specs
// ---------------------------------------------------------------------------------------------

function pick(types: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    if (!(key in types)) throw new Error(`dynalite validation spec lacks ${key}`);
    out[key] = types[key];
  }
  return out;
}

const EXPRESSION_PARAMS = ['ConditionExpression', 'ExpressionAttributeNames', 'ExpressionAttributeValues'];
const returnValuesOnConditionCheckFailure = { type: 'String', enum: ['ALL_OLD', 'NONE'] };
const requiredString = { type: 'String', notNull: true };

const writeOpTypes: Record<WriteKind, Record<string, unknown>> = {
  ConditionCheck: {
    ...pick(actionValidations.deleteItem.types, ['TableName', 'Key', ...EXPRESSION_PARAMS]),
    ConditionExpression: requiredString,
    ReturnValuesOnConditionCheckFailure: returnValuesOnConditionCheckFailure,
  },
  Put: {
    ...pick(actionValidations.putItem.types, ['TableName', 'Item', ...EXPRESSION_PARAMS]),
    ReturnValuesOnConditionCheckFailure: returnValuesOnConditionCheckFailure,
  },
  Update: {
    ...pick(actionValidations.updateItem.types, ['TableName', 'Key', 'UpdateExpression', ...EXPRESSION_PARAMS]),
    UpdateExpression: requiredString,
    ReturnValuesOnConditionCheckFailure: returnValuesOnConditionCheckFailure,
  },
  Delete: {
    ...pick(actionValidations.deleteItem.types, ['TableName', 'Key', ...EXPRESSION_PARAMS]),
    ReturnValuesOnConditionCheckFailure: returnValuesOnConditionCheckFailure,
  },
};

/** dynalite's `custom` validator that parses the expressions of each kind of operation. */
const writeOpCustom: Record<WriteKind, NonNullable<typeof actionValidations.putItem.custom>> = {
  ConditionCheck: requireCustom(actionValidations.deleteItem.custom),
  Put: requireCustom(actionValidations.putItem.custom),
  Update: requireCustom(actionValidations.updateItem.custom),
  Delete: requireCustom(actionValidations.deleteItem.custom),
};

function requireCustom<T>(fn: T | undefined): T {
  if (!fn) throw new Error('dynalite validation spec lacks its custom validator');
  return fn;
}

const returnConsumedCapacity = pick(actionValidations.putItem.types, ['ReturnConsumedCapacity']);

const transactWriteItemsTypes: Record<string, unknown> = {
  ...returnConsumedCapacity,
  ReturnItemCollectionMetrics: { type: 'String', enum: ['SIZE', 'NONE'] },
  ClientRequestToken: { type: 'String', lengthGreaterThanOrEqual: 1, lengthLessThanOrEqual: 36 },
  TransactItems: {
    type: 'List',
    notNull: true,
    lengthGreaterThanOrEqual: 1,
    lengthLessThanOrEqual: MAX_TRANSACT_ITEMS,
    children: {
      type: 'ValueStruct<TransactWriteItem>',
      children: Object.fromEntries(
        WRITE_KINDS.map((kind) => [kind, { type: `FieldStruct<${kind}>`, children: writeOpTypes[kind] }]),
      ),
    },
  },
};

const transactGetItemsTypes: Record<string, unknown> = {
  ...returnConsumedCapacity,
  TransactItems: {
    type: 'List',
    notNull: true,
    lengthGreaterThanOrEqual: 1,
    lengthLessThanOrEqual: MAX_TRANSACT_ITEMS,
    children: {
      type: 'ValueStruct<TransactGetItem>',
      children: {
        Get: {
          type: 'FieldStruct<Get>',
          notNull: true,
          children: pick(actionValidations.getItem.types, [
            'TableName',
            'Key',
            'ProjectionExpression',
            'ExpressionAttributeNames',
          ]),
        },
      },
    },
  },
};

// ---------------------------------------------------------------------------------------------
// Errors in dynalite's convention ({statusCode, body}), sent to the client as they are
// ---------------------------------------------------------------------------------------------

function serviceError(type: string, message: string, extra: Record<string, unknown> = {}): DynaliteError {
  const err: DynaliteError = new Error(message);
  err.statusCode = 400;
  err.body = { __type: NS + type, message, ...extra };
  return err;
}

export function transactionCanceled(reasons: CancellationReason[]): DynaliteError {
  const message =
    'Transaction cancelled, please refer cancellation reasons for specific reasons ' +
    `[${reasons.map((r) => r.Code).join(', ')}]`;
  const err: DynaliteError = new Error(message);
  err.statusCode = 400;
  // The SDK (AwsJson1_0 protocol) maps `Message` and `CancellationReasons` onto the exception.
  err.body = { __type: NS + 'TransactionCanceledException', Message: message, CancellationReasons: reasons };
  return err;
}

// ---------------------------------------------------------------------------------------------
// Small promise helpers around dynalite's callback APIs
// ---------------------------------------------------------------------------------------------

function getTable(store: Store, name: string): Promise<TableDescription> {
  return new Promise((resolve, reject) => {
    store.getTable(name, (err, table) => (err || !table ? reject(err ?? new Error('no table')) : resolve(table)));
  });
}

function getItem(store: Store, tableName: string, key: string): Promise<Item | undefined> {
  return new Promise((resolve, reject) => {
    store.getItemDb(tableName).get(key, (err, item) => {
      if (err && err.name !== 'NotFoundError') return reject(err);
      resolve(err ? undefined : (item ?? undefined));
    });
  });
}

function runAction(action: Action, store: ActionStore, data: OpData): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    action(store, data, (err, result) => (err ? reject(err) : resolve(result ?? {})));
  });
}

function commitBatch(store: Store, ops: BatchOp[]): Promise<void> {
  if (!ops.length) return Promise.resolve();
  return new Promise((resolve, reject) => store.db.batch(ops, (err) => (err ? reject(err) : resolve())));
}

/**
 * Takes dynalite's per-item write locks for all the given keys, in a global order (tables sorted
 * by name; within a table all keys are queued in one synchronous call of `lock`), so two
 * transactions can never deadlock, and single-item writes (which lock one key) cannot either.
 */
async function withItemLocks<T>(store: Store, keysByTable: Map<string, Set<string>>, fn: () => Promise<T>): Promise<T> {
  const releases: Array<() => void> = [];
  try {
    for (const tableName of [...keysByTable.keys()].sort()) {
      const keys = [...(keysByTable.get(tableName) ?? [])].sort();
      if (!keys.length) continue;
      const release = await new Promise<() => void>((resolve) => {
        store.getItemDb(tableName).lock(keys, (releaser) => resolve(releaser(() => undefined)));
      });
      releases.push(release);
    }
    return await fn();
  } finally {
    for (const release of releases.reverse()) release();
  }
}

const itemId = (tableName: string, key: string) => `${tableName}\u0000${key}`;

/**
 * A store for dynalite's write actions that reads the locked snapshot and records, instead of
 * performing, the writes to the item and index sub-dbs (as main-db keys, for one atomic batch).
 */
function stagingStore(
  store: Store,
  tables: Map<string, TableDescription>,
  snapshot: Map<string, Item | undefined>,
  out: BatchOp[],
): ActionStore {
  const recorder = (prefix: string, tableName?: string) => ({
    lock: (_key: string | string[], exec: Parameters<Store['tableDb']['lock']>[1]) => exec((done) => done),
    get: (key: string, cb: (err: DynaliteError | null, value?: Item) => void) => {
      const item = tableName == null ? undefined : snapshot.get(itemId(tableName, key));
      if (item) return cb(null, item);
      const err: DynaliteError = new Error('NotFound');
      err.name = 'NotFoundError';
      cb(err);
    },
    put: (key: string, value: unknown, cb: (err?: DynaliteError | null) => void) => {
      out.push({ type: 'put', key: prefix + key, value });
      cb(null);
    },
    del: (key: string, cb: (err?: DynaliteError | null) => void) => {
      out.push({ type: 'del', key: prefix + key });
      cb(null);
    },
  });
  return {
    options: store.options,
    getTable: (name, cb) => {
      const table = tables.get(name);
      if (table) cb(null, table);
      else store.getTable(name, cb);
    },
    getItemDb: (tableName) => recorder(subDbPrefix.item(tableName), tableName),
    getIndexDb: (indexType, tableName, indexName) => recorder(subDbPrefix.index(indexType, tableName, indexName)),
  };
}

function consumedCapacity(
  data: OpData,
  units: Array<{ tableName: string; read: number; write: number }>,
): Array<Record<string, unknown>> | undefined {
  if (data.ReturnConsumedCapacity !== 'TOTAL' && data.ReturnConsumedCapacity !== 'INDEXES') return undefined;
  const byTable = new Map<string, { read: number; write: number }>();
  for (const u of units) {
    const t = byTable.get(u.tableName) ?? { read: 0, write: 0 };
    // transactional reads/writes cost twice the standard ones
    t.read += 2 * u.read;
    t.write += 2 * u.write;
    byTable.set(u.tableName, t);
  }
  return [...byTable].map(([TableName, t]) => ({
    TableName,
    CapacityUnits: t.read + t.write,
    ReadCapacityUnits: t.read,
    WriteCapacityUnits: t.write,
    ...(data.ReturnConsumedCapacity === 'INDEXES' ? { Table: { CapacityUnits: t.read + t.write } } : {}),
  }));
}

// ---------------------------------------------------------------------------------------------
// TransactWriteItems
// ---------------------------------------------------------------------------------------------

interface WriteOp {
  kind: WriteKind;
  tableName: string;
  data: OpData;
  table: TableDescription;
  key: string;
}

interface IdempotencyEntry {
  fingerprint: string;
  expires: number;
  response: Record<string, unknown>;
}

export interface TransactionHandlers {
  transactWriteItems(body: unknown): Promise<Record<string, unknown>>;
  transactGetItems(body: unknown): Promise<Record<string, unknown>>;
}

/**
 * Real DynamoDB cancels a transaction that meets another one on an item (TransactionCanceledException,
 * reason `TransactionConflict`); the stand-in serialises them on locks instead, unless told otherwise:
 * - `overlap`: a TransactWriteItems whose items are in an unfinished transaction is cancelled the way
 *   DynamoDB does it (those items `TransactionConflict`, the others `None`), instead of waiting;
 * - `rate`: each TransactWriteItems is cancelled with that probability (0..1), as if it had met another one;
 * - `injectConflicts(n)`: the next n TransactWriteItems are cancelled (deterministic, for tests).
 * LOCAL_DYNAMO_TRANSACTION_CONFLICTS=overlap or =<rate> sets the first two for local mode.
 */
export interface TransactionConflictSimulation {
  overlap?: boolean;
  rate?: number;
}

export interface TransactionConflictControl {
  /** The next `count` TransactWriteItems answer TransactionCanceledException with a TransactionConflict reason. */
  injectConflicts(count: number): void;
  /** Transactions cancelled with TransactionConflict so far. */
  readonly conflictsAnswered: number;
  simulation: TransactionConflictSimulation;
}

/** LOCAL_DYNAMO_TRANSACTION_CONFLICTS: `overlap`, a rate such as `0.2`, or both (`overlap,0.2`). */
export function conflictSimulationFromEnv(value: string | undefined): TransactionConflictSimulation {
  const out: TransactionConflictSimulation = {};
  for (const part of (value ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    if (part === 'overlap') out.overlap = true;
    else if (Number.isFinite(Number(part)) && Number(part) >= 0 && Number(part) <= 1) out.rate = Number(part);
    else throw new Error(`LOCAL_DYNAMO_TRANSACTION_CONFLICTS: "${part}" is neither overlap nor a rate between 0 and 1`);
  }
  return out;
}

const CONFLICT_MESSAGE = 'Transaction is ongoing for the item';

export function createTransactionHandlers(
  store: Store,
  simulation: TransactionConflictSimulation = {},
): TransactionHandlers & { conflicts: TransactionConflictControl } {
  const idempotency = new Map<string, IdempotencyEntry>();
  /** Items (table + key) of TransactWriteItems not finished yet, for `overlap`. */
  const inFlight = new Map<string, number>();
  let injected = 0;
  let answered = 0;
  const conflicts: TransactionConflictControl = {
    injectConflicts(count: number) {
      injected += Math.max(0, Math.floor(count));
    },
    get conflictsAnswered() {
      return answered;
    },
    simulation,
  };

  /** Cancels with TransactionConflict: `conflicting` marks the items in conflict (all false: the first one). */
  function conflict(conflicting: boolean[]): DynaliteError {
    answered += 1;
    const marks = conflicting.some(Boolean) ? conflicting : conflicting.map((_, i) => i === 0);
    return transactionCanceled(marks.map((c) => (c ? { Code: 'TransactionConflict', Message: CONFLICT_MESSAGE } : { Code: 'None' })));
  }

  async function transactWriteItems(body: unknown): Promise<Record<string, unknown>> {
    const fingerprint = JSON.stringify((body as { TransactItems?: unknown } | null)?.TransactItems ?? null);
    const data = validations.checkTypes(body, transactWriteItemsTypes);
    validations.checkValidations(data, transactWriteItemsTypes, validateWriteItems, store);

    const token = typeof data.ClientRequestToken === 'string' ? data.ClientRequestToken : undefined;
    const now = Date.now();
    for (const [t, entry] of idempotency) if (entry.expires < now) idempotency.delete(t);
    const previous = token ? idempotency.get(token) : undefined;
    if (previous) {
      if (previous.fingerprint !== fingerprint) {
        throw serviceError(
          'IdempotentParameterMismatchException',
          'The request uses the same client token as a previous, but non-identical request.',
        );
      }
      return previous.response;
    }

    const ops = await resolveWriteOps(data.TransactItems as Array<Record<string, OpData>>);
    const keysByTable = new Map<string, Set<string>>();
    for (const op of ops) {
      const keys = keysByTable.get(op.tableName) ?? new Set<string>();
      if (keys.has(op.key)) {
        throw db.validationError('Transaction request cannot include multiple operations on one item');
      }
      keys.add(op.key);
      keysByTable.set(op.tableName, keys);
    }

    if (injected > 0) {
      injected -= 1;
      throw conflict(ops.map(() => false));
    }
    if (simulation.rate && Math.random() < simulation.rate) throw conflict(ops.map(() => false));
    const ids = ops.map((op) => itemId(op.tableName, op.key));
    if (simulation.overlap) {
      const busy = ids.map((id) => inFlight.has(id));
      if (busy.some(Boolean)) throw conflict(busy);
    }
    for (const id of ids) inFlight.set(id, (inFlight.get(id) ?? 0) + 1);
    try {
      return await writeUnderLocks(data, ops, keysByTable, token, fingerprint);
    } finally {
      for (const id of ids) {
        const n = (inFlight.get(id) ?? 1) - 1;
        if (n > 0) inFlight.set(id, n);
        else inFlight.delete(id);
      }
    }
  }

  async function writeUnderLocks(
    data: OpData,
    ops: WriteOp[],
    keysByTable: Map<string, Set<string>>,
    token: string | undefined,
    fingerprint: string,
  ): Promise<Record<string, unknown>> {
    const response = await withItemLocks(store, keysByTable, async () => {
      const snapshot = new Map<string, Item | undefined>();
      for (const op of ops) snapshot.set(itemId(op.tableName, op.key), await getItem(store, op.tableName, op.key));
      const existing = (op: WriteOp) => snapshot.get(itemId(op.tableName, op.key));

      // 1. every condition against the state before the transaction
      const conditionReasons = ops.map((op): CancellationReason => {
        const failed = db.checkConditional(op.data, existing(op));
        if (!failed) return { Code: 'None' };
        const old = existing(op);
        return {
          Code: 'ConditionalCheckFailed',
          Message: failed.message,
          ...(op.data.ReturnValuesOnConditionCheckFailure === 'ALL_OLD' && old ? { Item: old } : {}),
        };
      });
      if (conditionReasons.some((r) => r.Code !== 'None')) throw transactionCanceled(conditionReasons);

      // 2. effects, computed by dynalite's own actions against the staging store
      const batch: BatchOp[] = [];
      const staging = stagingStore(store, new Map(ops.map((op) => [op.tableName, op.table])), snapshot, batch);
      const newItems = new Map<WriteOp, Item | undefined>();
      const effectReasons: CancellationReason[] = [];
      for (const op of ops) {
        if (op.kind === 'ConditionCheck') {
          effectReasons.push({ Code: 'None' });
          continue;
        }
        // the condition was checked above, on the same snapshot
        const opData: OpData = { ...op.data };
        delete opData._condition;
        const action = op.kind === 'Put' ? actions.putItem : op.kind === 'Update' ? actions.updateItem : actions.deleteItem;
        try {
          const result = await runAction(action, staging, op.kind === 'Update' ? { ...opData, ReturnValues: 'ALL_NEW' } : opData);
          newItems.set(op, op.kind === 'Put' ? (op.data.Item as Item) : (result.Attributes as Item | undefined));
          effectReasons.push({ Code: 'None' });
        } catch (err) {
          const e = err as DynaliteError;
          if (e.statusCode !== 400) throw err;
          effectReasons.push({ Code: 'ValidationError', Message: e.body?.message ?? e.message });
        }
      }
      if (effectReasons.some((r) => r.Code !== 'None')) throw transactionCanceled(effectReasons);

      // 3. all item and index writes of the transaction in one atomic LevelDB batch
      await commitBatch(store, batch);

      const units = ops.map((op) => {
        const old = existing(op);
        if (op.kind === 'ConditionCheck') return { tableName: op.tableName, read: db.capacityUnits(old, true, true), write: 0 };
        const written = newItems.get(op);
        const write = Math.max(db.capacityUnits(written ?? old), old ? db.capacityUnits(old) : 0);
        return { tableName: op.tableName, read: 0, write };
      });
      const capacity = consumedCapacity(data, units);
      return capacity ? { ConsumedCapacity: capacity } : {};
    });

    if (token) idempotency.set(token, { fingerprint, expires: Date.now() + IDEMPOTENCY_WINDOW_MS, response });
    return response;
  }

  /** Runs after the type checks: one operation per element, then dynalite's expression parsing. */
  function validateWriteItems(data: OpData): string | undefined {
    const items = data.TransactItems as Array<Record<string, OpData | undefined>>;
    for (const element of items) {
      const kinds = WRITE_KINDS.filter((kind) => element[kind] != null);
      if (kinds.length !== 1) return 'TransactItems can only contain one of Check, Put, Update or Delete';
      const kind = kinds[0] as WriteKind;
      const msg = writeOpCustom[kind](element[kind] as OpData, store);
      if (msg) return msg;
    }
    return undefined;
  }

  async function resolveWriteOps(items: Array<Record<string, OpData>>): Promise<WriteOp[]> {
    const tables = await loadTables(items.map((element) => tableNameOf(element[writeKindOf(element)])));
    return items.map((element) => {
      const kind = writeKindOf(element);
      const data = element[kind] as OpData;
      const tableName = tableNameOf(data);
      const table = tables.get(tableName) as TableDescription;
      // the same checks dynalite's single-item actions make before touching the item
      const invalid =
        kind === 'Put'
          ? db.validateItem(data.Item as Item, table)
          : db.validateKey(data.Key as Item, table) ??
            (kind === 'Update' ? db.validateUpdates(undefined, data._updates, table) : undefined);
      if (invalid) throw invalid;
      // shallow-copy the key: dynalite's updateItem builds a new item on top of `data.Key`
      if (kind !== 'Put') data.Key = { ...(data.Key as Item) };
      const key = db.createKey((kind === 'Put' ? data.Item : data.Key) as Item, table);
      return { kind, tableName, data, table, key };
    });
  }

  async function loadTables(names: string[]): Promise<Map<string, TableDescription>> {
    const tables = new Map<string, TableDescription>();
    for (const name of new Set(names)) tables.set(name, await getTable(store, name));
    return tables;
  }

  // -------------------------------------------------------------------------------------------
  // TransactGetItems
  // -------------------------------------------------------------------------------------------

  async function transactGetItems(body: unknown): Promise<Record<string, unknown>> {
    const data = validations.checkTypes(body, transactGetItemsTypes);
    validations.checkValidations(data, transactGetItemsTypes, validateGetItems, store);
    const gets = (data.TransactItems as Array<{ Get: OpData }>).map((element) => element.Get);

    const tables = await loadTables(gets.map(tableNameOf));
    const keysByTable = new Map<string, Set<string>>();
    for (const get of gets) {
      const tableName = tableNameOf(get);
      const table = tables.get(tableName) as TableDescription;
      const invalid = db.validateKey(get.Key as Item, table);
      if (invalid) throw invalid;
      const key = db.createKey(get.Key as Item, table);
      const keys = keysByTable.get(tableName) ?? new Set<string>();
      if (keys.has(key)) throw db.validationError('Transaction request cannot include multiple operations on one item');
      keys.add(key);
      keysByTable.set(tableName, keys);
    }

    // Reads under the same item locks as writes: the result is one consistent snapshot, never
    // half of a concurrent transaction.
    const results = await withItemLocks(store, keysByTable, async () => {
      const out: Array<Record<string, unknown>> = [];
      for (const get of gets) out.push(await runAction(actions.getItem, store, { ...get, ConsistentRead: true }));
      return out;
    });

    const responses = results.map((r) => (r.Item ? { Item: r.Item } : {}));
    const capacity = consumedCapacity(
      data,
      gets.map((get, i) => ({ tableName: tableNameOf(get), read: db.capacityUnits(results[i]?.Item as Item | undefined, true, true), write: 0 })),
    );
    return { Responses: responses, ...(capacity ? { ConsumedCapacity: capacity } : {}) };
  }

  function validateGetItems(data: OpData): string | undefined {
    for (const element of data.TransactItems as Array<{ Get: OpData }>) {
      const msg = requireCustom(actionValidations.getItem.custom)(element.Get, store);
      if (msg) return msg;
    }
    return undefined;
  }

  return { transactWriteItems, transactGetItems, conflicts };
}

function writeKindOf(element: Record<string, OpData | undefined>): WriteKind {
  const kind = WRITE_KINDS.find((k) => element[k] != null);
  if (!kind) throw new Error('validated transact item without operation');
  return kind;
}

function tableNameOf(data: OpData | undefined): string {
  return String(data?.TableName);
}
