/**
 * Local DynamoDB stand-in: dynalite@4.0.0 plus TransactWriteItems / TransactGetItems.
 *
 * dynalite's HTTP server is kept as is; its request listener is wrapped so that requests whose
 * `X-Amz-Target` is `DynamoDB_20120810.TransactWriteItems` / `.TransactGetItems` are answered by
 * ./transactions (built on dynalite's own validations, locks, condition checks and actions, with
 * the same store), and everything else goes to dynalite untouched.
 */
import { mkdirSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { createDynaliteWithStore, subDbPrefix, type BatchOp, type DynaliteError, type Store, type TableDescription } from './dynalite-internals';
import {
  conflictSimulationFromEnv,
  createTransactionHandlers,
  type TransactionConflictControl,
  type TransactionConflictSimulation,
  type TransactionHandlers,
} from './transactions';

export interface LocalDynamo {
  endpoint: string;
  /** TransactionConflict cancellations as real DynamoDB answers them (transactions.ts). */
  conflicts: TransactionConflictControl;
  close(): Promise<void>;
}

export interface StartLocalDynamoOptions {
  /** 0 or undefined: a random free port on 127.0.0.1. */
  port?: number;
  /** undefined: in memory; otherwise a LevelDB directory that survives restarts (and SIGKILL). */
  dataDir?: string;
  /** Default: from LOCAL_DYNAMO_TRANSACTION_CONFLICTS (none when unset). */
  transactionConflicts?: TransactionConflictSimulation;
}

const TARGET_PREFIX = 'DynamoDB_20120810.';
const MAX_REQUEST_BYTES = 16 * 1024 * 1024; // as dynalite
const HOST = '127.0.0.1';

export async function startLocalDynamo(opts: StartLocalDynamoOptions = {}): Promise<LocalDynamo> {
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });

  // Zero artificial delays: tables/indexes are ACTIVE right after CreateTable/UpdateTable.
  const { server, store } = createDynaliteWithStore({
    path: opts.dataDir,
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
  });

  try {
    await store.db.open(); // surfaces e.g. a data dir locked by another running instance
  } catch (err) {
    throw new Error(`local DynamoDB: cannot open data dir ${opts.dataDir ?? '(memory)'}: ${String(err)}`, { cause: err });
  }
  if (opts.dataDir) await recoverInterruptedTableStates(store);

  const transactions = createTransactionHandlers(
    store,
    opts.transactionConflicts ?? conflictSimulationFromEnv(process.env.LOCAL_DYNAMO_TRANSACTION_CONFLICTS),
  );
  interceptTransactions(server, transactions);
  settleTableStatesBeforeAnswering(server, store);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  return {
    endpoint: `http://${HOST}:${port}`,
    conflicts: transactions.conflicts,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        // dynalite's close: stop listening, wait for pending LevelDB operations, close the db.
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeIdleConnections();
        // keep-alive sockets of clients that are not closed would hold the server open
        setTimeout(() => server.closeAllConnections(), 1000).unref();
      });
      return closing;
    },
  };
}

function interceptTransactions(server: Server, handlers: TransactionHandlers): void {
  const dynaliteListeners = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  const [dynaliteHandler] = dynaliteListeners;
  if (dynaliteListeners.length !== 1 || !dynaliteHandler) throw new Error('unexpected dynalite request listeners');
  server.removeAllListeners('request');

  const ownOperations: Record<string, (body: unknown) => Promise<Record<string, unknown>>> = {
    TransactWriteItems: handlers.transactWriteItems,
    TransactGetItems: handlers.transactGetItems,
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const target = String(req.headers['x-amz-target'] ?? '');
    const operation = target.startsWith(TARGET_PREFIX) ? ownOperations[target.slice(TARGET_PREFIX.length)] : undefined;
    if (req.method !== 'POST' || !operation) {
      dynaliteHandler.call(server, req, res);
      return;
    }
    handleOwnOperation(req, res, operation);
  });
}

/**
 * With 0 ms delays dynalite still answers CreateTable/UpdateTable/DeleteTable *before* its timer
 * stores the final state (ACTIVE / table removed), so a client acting at once on the answer can
 * get ResourceNotFoundException (table still CREATING) or ResourceInUseException. Hold the
 * successful answer of those operations until the final state is stored.
 */
function settleTableStatesBeforeAnswering(server: Server, store: Store): void {
  const finalState: Record<string, 'ACTIVE' | 'GONE'> = {
    CreateTable: 'ACTIVE',
    UpdateTable: 'ACTIVE',
    DeleteTable: 'GONE',
  };
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const target = String(req.headers['x-amz-target'] ?? '');
    const wanted = target.startsWith(TARGET_PREFIX) ? finalState[target.slice(TARGET_PREFIX.length)] : undefined;
    if (!wanted) return;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.end = ((...args: unknown[]) => {
      const tableName = res.statusCode === 200 ? tableNameInResponse(args[0]) : undefined;
      if (!tableName) return end(...args);
      waitForTableState(store, tableName, wanted).then(
        () => end(...args),
        () => end(...args),
      );
      return res;
    }) as ServerResponse['end'];
  });
}

function tableNameInResponse(body: unknown): string | undefined {
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) return undefined;
  try {
    const name = (JSON.parse(body.toString()) as { TableDescription?: { TableName?: unknown } }).TableDescription?.TableName;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

async function waitForTableState(store: Store, tableName: string, wanted: 'ACTIVE' | 'GONE', timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const table = await new Promise<TableDescription | undefined>((resolve) =>
      store.tableDb.get(tableName, (err, value) => resolve(err ? undefined : (value as unknown as TableDescription | undefined))),
    );
    if (wanted === 'GONE' ? !table : table?.TableStatus === 'ACTIVE' || !table) return;
    if (Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** The HTTP protocol of dynalite's handler (index.js), for the operations answered here. */
function handleOwnOperation(
  req: IncomingMessage,
  res: ServerResponse,
  operation: (body: unknown) => Promise<Record<string, unknown>>,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) tooLarge = true;
    else chunks.push(chunk);
  });
  req.on('error', () => res.destroy());
  req.on('end', () => {
    if (tooLarge) {
      res.statusCode = 413;
      res.end();
      return;
    }
    res.setHeader('x-amzn-RequestId', randomBytes(39).toString('base64').toUpperCase().replace(/\+|\//g, '0'));
    if (req.headers.origin) res.setHeader('Access-Control-Allow-Origin', '*');

    const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
    if (contentType !== 'application/json' && contentType !== 'application/x-amz-json-1.0') {
      res.statusCode = 404;
      res.end('<UnknownOperationException/>\n');
      return;
    }
    const send = (status: number, payload: unknown) => {
      const body = JSON.stringify(payload);
      res.statusCode = status;
      res.setHeader('x-amz-crc32', crc32(body));
      res.setHeader('Content-Type', contentType);
      res.setHeader('Content-Length', Buffer.byteLength(body, 'utf8'));
      res.end(body);
    };

    const authorization = req.headers.authorization;
    const queryAuth = new URL(req.url ?? '/', 'http://localhost').searchParams.has('X-Amz-Algorithm');
    if (!queryAuth && !authorization?.trim().startsWith('AWS4-')) {
      send(400, {
        __type: 'com.amazon.coral.service#MissingAuthenticationTokenException',
        message: 'Request is missing Authentication Token',
      });
      return;
    }

    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      send(400, { __type: 'com.amazon.coral.service#SerializationException' });
      return;
    }

    new Promise<Record<string, unknown>>((resolve) => resolve(operation(parsed))).then(
      (result) => send(200, result),
      (err: DynaliteError) => {
        if (err?.statusCode && err.body) send(err.statusCode, err.body);
        else send(500, { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: String(err?.message ?? err) });
      },
    );
  });
}

/**
 * dynalite finishes CreateTable/UpdateTable/DeleteTable in a timer after it answered (with 0 ms
 * delays here, a few ms later). A process killed in that window leaves the table CREATING/UPDATING
 * (invisible to item operations for ever) or DELETING in the data dir; finish those on start.
 */
export async function recoverInterruptedTableStates(store: Store): Promise<void> {
  const keysWithPrefix = async (prefix: string): Promise<string[]> => {
    const keys: string[] = [];
    for await (const key of store.db.keys({ gte: prefix, lt: prefix + '\xff' })) keys.push(key);
    return keys;
  };
  const batch: BatchOp[] = [];
  for (const key of await keysWithPrefix(subDbPrefix.table)) {
    const tableName = key.slice(subDbPrefix.table.length);
    const table = await new Promise<TableDescription | undefined>((resolve) =>
      store.tableDb.get(tableName, (err, value) => resolve(err ? undefined : (value as unknown as TableDescription))),
    );
    if (!table || typeof table !== 'object') continue;
    if (table.TableStatus === 'CREATING' || table.TableStatus === 'UPDATING') {
      for (const index of table.GlobalSecondaryIndexes ?? []) index.IndexStatus = 'ACTIVE';
      batch.push({ type: 'put', key, value: { ...table, TableStatus: 'ACTIVE' } });
    } else if (table.TableStatus === 'DELETING') {
      const prefixes = [
        subDbPrefix.item(tableName),
        subDbPrefix.tag(tableName),
        subDbPrefix.indexesOf('global', tableName),
        subDbPrefix.indexesOf('local', tableName),
      ];
      for (const prefix of prefixes) {
        for (const k of await keysWithPrefix(prefix)) batch.push({ type: 'del', key: k });
      }
      batch.push({ type: 'del', key });
    }
  }
  if (batch.length) await new Promise<void>((resolve, reject) => store.db.batch(batch, (err) => (err ? reject(err) : resolve())));
}
