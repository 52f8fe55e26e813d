import { useCallback, useEffect, useId, useReducer, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useApi } from '../../../app/api-context';
import { useAuth } from '../../../app/auth';
import { useSessionExpiry } from '../../../app/session-expiry';
import { Button } from '../../../components/ui/Button';
import { Dropzone } from '../../../components/ui/Dropzone';
import { Icon } from '../../../components/ui/Icon';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { Modal } from '../../../components/ui/Modal';
import { fullName } from '../../../lib/format';
import { useActiveCompany } from '../../companies/api/companies';
import { receiptOfPayload } from '../../live/lib/cache-updates';
import { liveBus } from '../../live/lib/live-bus';
import { useReceiptCache } from '../../live/use-receipt-cache';
import { useProfile } from '../../profile/api/profile';
import { DocIcon } from '../../receipts/components/DocIcon';
import { SESSION_EXPIRED_TEXT } from '../../shell/components/SessionExpiredPopup';
import { uploadOne, useCompanyUsers } from '../api/upload';
import { uploadFailure } from '../lib/failure';
import { dropKeptUploads, keepUploads, lostFilesText, type KeptUpload, type KeptUploads, type UploadTarget } from '../lib/kept-uploads';
import {
  formatBytes,
  itemsForFiles,
  itemsLeftBehind,
  itemsToKeep,
  LEFT_LIST_TEXT,
  leftListText,
  processingText,
  queueReducer,
  queueSummary,
  retryableIds,
  stillUploadingText,
  uploadedList,
  type UploadItem,
} from '../lib/queue';
import type { UploadContext, UploadSettings } from '../lib/request';
import { acceptOf, sizeHintOf, uploadSummary, type UploadMode, type UploadReceiptType } from '../lib/validate';

/** Files uploaded at the same time. */
const PARALLEL_UPLOADS = 3;

let nextItemId = 1;
const newItemId = () => `upload-${nextItemId++}`;

/** A file of the queue: the File, the pop-up's choices when it was added, and where it went (once started). */
interface ItemSource {
  file: File;
  settings: UploadSettings;
  target?: UploadTarget;
}

/** The cards of files kept when the session ended: failed, ready to try again. */
function keptItems(kept: ReadonlyArray<KeptUpload>): Array<{ item: UploadItem; source: ItemSource }> {
  return kept.map((k) => ({
    item: { id: newItemId(), name: k.name, size: k.size, state: 'failed', progress: 0, message: k.message, retry: true, sessionEnded: true },
    source: { file: k.file, settings: k.settings, target: k.target },
  }));
}

function ItemCard({ item, onRetry }: { item: UploadItem; onRetry(id: string): void }) {
  const processing = item.state === 'done' ? processingText(item) : null;
  const tone = item.state === 'failed' || processing?.failed ? 'failed' : item.state === 'done' ? 'done' : 'active';
  return (
    <li className={`upload-item upload-${tone}`} data-testid="upload-item" data-state={item.state}>
      <span className="upload-item-icon" aria-hidden="true">
        {tone === 'done' ? <Icon name="check" size={18} /> : tone === 'failed' ? <Icon name="info" size={18} /> : <DocIcon name="file" size={18} />}
      </span>
      <span className="upload-item-body">
        <span className="upload-item-head">
          <span className="upload-item-name" title={item.name}>
            {item.name}
          </span>
          <span className="upload-item-size">{formatBytes(item.size)}</span>
        </span>
        {item.state === 'failed' ? (
          <>
            <span className="upload-item-message" role="alert">
              {item.message}
            </span>
            {item.retry && (
              <span>
                <Button variant="link" className="btn-sm" aria-label={`Try again ${item.name}`} onClick={() => onRetry(item.id)}>
                  Try again
                </Button>
              </span>
            )}
          </>
        ) : processing ? (
          <>
            <span className="upload-item-ok" data-testid="upload-item-status">
              {processing.text}
            </span>
            {processing.error && (
              <span className="upload-item-message" role="alert">
                {processing.error}
              </span>
            )}
          </>
        ) : (
          <span
            className="progress upload-progress"
            role="progressbar"
            aria-label={`Uploading ${item.name}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={item.progress}
          >
            <span className="progress-bar progress-blue" style={{ width: `${item.progress}%` }} />
          </span>
        )}
      </span>
    </li>
  );
}

/**
 * The upload pop-up: Cost/Sales, one document per file or per page (PDF only), the owner, then files by drag
 * and drop or click. Each file is checked here, signed by GET /upload/document and PUT to S3 with a progress
 * bar; the cards under "Your uploaded items (N files, M failure)" tell how each went. A file that failed for a
 * reason a new try can change keeps its File and its card offers Try again (a new signed URL, a new PUT). When
 * the session ends, the files not uploaded are kept for the user (lib/kept-uploads.ts) and `resume` brings them
 * back after the sign-in (ResumeUploads.tsx); closing the pop-up lets them go.
 */
export function UploadModal({ onClose, resume }: { onClose(): void; resume?: KeptUploads }) {
  const api = useApi();
  const userId = useAuth().user?.userId ?? '';
  const { expired } = useSessionExpiry();
  const view = useActiveCompany();
  const profile = useProfile();
  const cache = useReceiptCache();
  const [receiptType, setReceiptType] = useState<UploadReceiptType>('receipt');
  const [mode, setMode] = useState<UploadMode>('single');
  const [ownerId, setOwnerId] = useState('');
  const [initial] = useState(() => keptItems(resume?.uploads ?? []));
  const [lostNames, setLostNames] = useState<string[]>(() => resume?.lostNames ?? []);
  const [items, dispatch] = useReducer(queueReducer, initial, (list) => list.map((k) => k.item));
  const sourcesRef = useRef(new Map<string, ItemSource>(initial.map((k) => [k.item.id, k.source])));
  const runningRef = useRef(new Set<string>());
  const abortRef = useRef(new AbortController());
  const ids = { type: useId(), mode: useId(), owner: useId() };

  const selfId = profile.data?.id;
  const company = view.active;
  const allCompanies = view.allCompanies;
  const isAdmin = !allCompanies && company?.role === 'admin';
  const users = useCompanyUsers(company?.company_id, isAdmin);
  const selfName = fullName(profile.data) || profile.data?.email || 'Me';
  const owners = [
    { id: selfId ?? '', label: selfName },
    ...(users.data ?? [])
      .filter((u) => u.user_id && u.user_id !== selfId)
      .map((u) => ({ id: u.user_id, label: fullName(u) || u.user?.email || u.email || u.user_id })),
  ];
  const ctx: UploadContext = { selfId, allCompanies, activeCompanyId: company?.company_id };
  const ctxRef = useRef(ctx);
  useEffect(() => {
    ctxRef.current = ctx;
  });

  // start waiting items while fewer than PARALLEL_UPLOADS run
  useEffect(() => {
    const waiting = items.filter((i) => i.state === 'waiting' && !runningRef.current.has(i.id));
    const slots = PARALLEL_UPLOADS - runningRef.current.size;
    for (const item of waiting.slice(0, Math.max(0, slots))) {
      const source = sourcesRef.current.get(item.id);
      if (!source) continue;
      // a file goes where it went the first time (a retry after signing in again too)
      const { allCompanies: toAll, activeCompanyId } = ctxRef.current;
      if (!source.target && (toAll || activeCompanyId)) source.target = { allCompanies: toAll, activeCompanyId };
      runningRef.current.add(item.id);
      dispatch({ type: 'start', id: item.id });
      const onProgress = (p: number) => dispatch({ type: 'progress', id: item.id, progress: p });
      uploadOne(api, source.file, source.settings, { ...ctxRef.current, ...source.target }, onProgress, abortRef.current.signal)
        .then(
          (signed) => ({ signed, error: null }),
          (error: unknown) => ({ signed: null, error }),
        )
        .then(({ signed, error }) => {
          runningRef.current.delete(item.id);
          if (signed) {
            sourcesRef.current.delete(item.id);
            dispatch({ type: 'done', id: item.id, uploadId: signed.upload_id });
          } else if (!(error instanceof DOMException && error.name === 'AbortError')) {
            const failure = uploadFailure(error);
            // only a file that may upload when tried again keeps its File
            if (!failure.retry) sourcesRef.current.delete(item.id);
            dispatch({ type: 'failed', id: item.id, ...failure });
          }
        });
    }
  }, [items, api]);

  // the documents made from the files report their processing on the live channel
  useEffect(
    () =>
      liveBus.subscribe((message) => {
        if (message.event !== 'receipt' && message.event !== 'receipt-update') return;
        const receipt = receiptOfPayload(message.payload);
        if (receipt?.upload_id) dispatch({ type: 'document', report: receipt });
      }),
    [],
  );

  const summary = queueSummary(items);

  // when a batch has finished, the lists and counts are reloaded; uploads without a company get no live
  // events, so their lists are watched until the documents are there
  const finished = summary.finished;
  const successes = summary.successes;
  useEffect(() => {
    if (finished && successes > 0) cache.refreshAll();
  }, [finished, successes, cache]);
  const watched = useRef(new Set<string>());
  useEffect(() => {
    if (!allCompanies) return;
    const fresh = items.filter((i) => i.state === 'done' && i.uploadId && !watched.current.has(i.uploadId)).map((i) => i.uploadId!);
    for (const id of fresh) watched.current.add(id);
    cache.watchUploads(fresh);
  }, [items, allCompanies, cache]);

  // When the session has ended, what did not upload is kept for the user's next sign-in in this tab (RECONNECT
  // signs out and the pop-up goes with the list); written on every change, as a reload runs no clean-up.
  const keptRef = useRef(Boolean(resume));
  useEffect(() => {
    if (!userId) return;
    const keep = itemsToKeep(items, expired).flatMap((i): KeptUpload[] => {
      const source = sourcesRef.current.get(i.id);
      return source ? [{ name: i.name, size: i.size, message: i.state === 'failed' ? (i.message ?? SESSION_EXPIRED_TEXT) : SESSION_EXPIRED_TEXT, ...source }] : [];
    });
    if (!keep.length && !lostNames.length && !keptRef.current) return;
    keptRef.current = keep.length > 0 || lostNames.length > 0;
    keepUploads(userId, keep, lostNames);
  }, [items, expired, userId, lostNames]);

  // Leaving the documents list while files upload (the menu, the browser's Back) takes the pop-up with it: what did
  // not upload is kept, and the pop-up opens again with it, ready to try again, when the user is back on the list
  // (ResumeUploads.tsx); an info pop-up says so. Not when the pop-up was closed on purpose, nor when the session
  // ended (kept above, for after the sign-in).
  const info = useInfoPopup();
  const leaving = useRef({ items, userId, expired, lostNames, closed: false });
  useEffect(() => {
    leaving.current = { ...leaving.current, items, userId, expired, lostNames };
  });
  useEffect(
    () => () => {
      const at = leaving.current;
      if (at.closed || at.expired || !at.userId) return;
      const left = itemsLeftBehind(at.items).flatMap((i): KeptUpload[] => {
        const source = sourcesRef.current.get(i.id);
        return source ? [{ name: i.name, size: i.size, message: i.state === 'failed' ? (i.message ?? LEFT_LIST_TEXT) : LEFT_LIST_TEXT, ...source }] : [];
      });
      if (!left.length) return;
      keepUploads(at.userId, left, at.lostNames);
      info.show(leftListText(left.length), 'info');
    },
    [info],
  );

  const retry = useCallback((ids: ReadonlyArray<string>) => dispatch({ type: 'retry', ids }), []);
  const close = () => {
    leaving.current.closed = true;
    // closed on purpose: what was kept for after a sign-in is let go
    if (keptRef.current && userId) dropKeptUploads(userId);
    keptRef.current = false;
    setLostNames([]);
    onClose();
  };

  // leaving the pop-up cancels uploads still running
  useEffect(() => {
    const controller = new AbortController();
    abortRef.current = controller;
    return () => controller.abort();
  }, []);

  const addFiles = useCallback(
    (list: FileList | File[] | null) => {
      const files = list ? Array.from(list) : [];
      if (files.length === 0) return;
      const newItems = itemsForFiles(files, mode, newItemId);
      const settings: UploadSettings = { receiptType, mode, ownerId: ownerId || selfId || '' };
      newItems.forEach((item, i) => {
        if (item.state === 'waiting') sourcesRef.current.set(item.id, { file: files[i]!, settings });
      });
      dispatch({ type: 'add', items: newItems });
    },
    [mode, receiptType, ownerId, selfId],
  );

  const busy = summary.active > 0;
  // the pop-up's × or Escape while files upload asks first: closing cancels them (CANCEL says so itself)
  const [askClose, setAskClose] = useState(false);
  const requestClose = () => (busy ? setAskClose(true) : close());
  if (askClose && !busy) setAskClose(false);
  // a reload or a closed tab while files upload: the browser asks before they are lost
  useEffect(() => {
    if (!busy) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);
  const opened = uploadedList(items, allCompanies);
  const retryable = retryableIds(items);

  return (
    <Modal title="Upload documents" onClose={requestClose} testId="upload-modal">
      <div className="upload-form">
        <div className="upload-options">
          <fieldset className="segmented" aria-labelledby={ids.type}>
            <legend id={ids.type} className="field-label">
              Document type
            </legend>
            <div className="segmented-options">
              {(
                [
                  ['receipt', 'Cost'],
                  ['invoice', 'Sales'],
                ] as const
              ).map(([value, label]) => (
                <label key={value} className={`segmented-option ${receiptType === value ? 'is-checked' : ''}`}>
                  <input type="radio" name="receipt_type" value={value} checked={receiptType === value} onChange={() => setReceiptType(value)} />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>

          <fieldset className="segmented" aria-labelledby={ids.mode}>
            <legend id={ids.mode} className="field-label">
              Mode
            </legend>
            <div className="segmented-options">
              {(
                [
                  ['single', 'One document per file'],
                  ['multiple', 'One document per page'],
                ] as const
              ).map(([value, label]) => (
                <label key={value} className={`segmented-option ${mode === value ? 'is-checked' : ''}`}>
                  <input type="radio" name="mode" value={value} checked={mode === value} onChange={() => setMode(value)} />
                  {label}
                </label>
              ))}
            </div>
            <p className="field-hint">{mode === 'multiple' ? 'PDF files only: every page becomes a document.' : 'JPG, PNG, PDF and office documents.'}</p>
          </fieldset>

          <div className="field">
            <label htmlFor={ids.owner} className="field-label">
              Owner
            </label>
            <select
              id={ids.owner}
              name="owner"
              className="input select"
              value={ownerId || selfId || ''}
              disabled={!isAdmin}
              onChange={(e) => setOwnerId(e.target.value)}
            >
              {owners.map((o) => (
                <option key={o.id || 'self'} value={o.id}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
        </div>

        <Dropzone
          label="Drag and drop files here or click to choose"
          testId="dropzone"
          input={{ name: 'files', testId: 'upload-input', accept: acceptOf(mode), multiple: true }}
          onFiles={addFiles}
        >
          <DocIcon name="cloud" size={34} />
          <strong>Drag and drop files here</strong>
          <span>
            or <span className="dropzone-link">click to choose</span>
          </span>
          <small className="muted" data-testid="upload-size-hint">{sizeHintOf(mode)}</small>
        </Dropzone>
        {allCompanies && <p className="field-hint">In the all-companies view uploads go to Unassigned; choose their company there.</p>}

        {lostNames.length > 0 && (
          <p className="notice notice-error" role="alert" data-testid="upload-lost">
            {lostFilesText(lostNames)}
          </p>
        )}
        {items.length > 0 && (
          <section className="upload-results" aria-live="polite">
            <h3 className="upload-results-title" data-testid="upload-summary">
              {uploadSummary(summary.total, summary.failures)}
            </h3>
            {retryable.length > 1 && (
              <Button variant="link" className="btn-sm" onClick={() => retry(retryable)}>
                Try all again
              </Button>
            )}
            <ul className="upload-list">
              {items.map((item) => (
                <ItemCard key={item.id} item={item} onRetry={(id) => retry([id])} />
              ))}
            </ul>
          </section>
        )}

        {askClose && (
          <div className="notice notice-error upload-close-ask" role="alert" data-testid="upload-close-ask">
            <p>{stillUploadingText(summary.active)}</p>
            <div className="modal-actions">
              <Button variant="secondary" onClick={() => setAskClose(false)}>
                Keep uploading
              </Button>
              <Button variant="danger" onClick={close}>
                Cancel uploads
              </Button>
            </div>
          </div>
        )}
        <div className="modal-actions">
          {summary.successes > 0 && !busy && (
            // (in the all-companies view the files become documents of no company, listed under Unassigned)
            <Link className="btn btn-secondary" to={opened.path} onClick={close}>
              <span className="btn-label">{opened.label}</span>
            </Link>
          )}
          <Button onClick={close} variant={busy ? 'secondary' : 'primary'}>
            {busy ? 'Cancel' : 'Done'}
          </Button>
        </div>
      </div>
    </Modal>
  );
}
