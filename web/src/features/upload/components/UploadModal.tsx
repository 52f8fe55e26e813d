import { useCallback, useEffect, useId, useReducer, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useApi } from '../../../app/api-context';
import { Button } from '../../../components/ui/Button';
import { Dropzone } from '../../../components/ui/Dropzone';
import { Icon } from '../../../components/ui/Icon';
import { Modal } from '../../../components/ui/Modal';
import { fullName } from '../../../lib/format';
import { useActiveCompany } from '../../companies/api/companies';
import { receiptOfPayload } from '../../live/lib/cache-updates';
import { liveBus } from '../../live/lib/live-bus';
import { useReceiptCache } from '../../live/use-receipt-cache';
import { useProfile } from '../../profile/api/profile';
import { DocIcon } from '../../receipts/components/DocIcon';
import { uploadFailureText, uploadOne, useCompanyUsers } from '../api/upload';
import { formatBytes, itemsForFiles, processingText, queueReducer, queueSummary, type UploadItem } from '../lib/queue';
import type { UploadContext, UploadSettings } from '../lib/request';
import { ACCEPT_ATTRIBUTE, uploadSummary, type UploadMode, type UploadReceiptType } from '../lib/validate';

/** Files uploaded at the same time. */
const PARALLEL_UPLOADS = 3;

let nextItemId = 1;
const newItemId = () => `upload-${nextItemId++}`;

function ItemCard({ item }: { item: UploadItem }) {
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
          <span className="upload-item-message" role="alert">
            {item.message}
          </span>
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
 * bar; the cards under "Your uploaded items (N files, M failure)" tell how each went.
 */
export function UploadModal({ onClose }: { onClose(): void }) {
  const api = useApi();
  const view = useActiveCompany();
  const profile = useProfile();
  const cache = useReceiptCache();
  const [receiptType, setReceiptType] = useState<UploadReceiptType>('receipt');
  const [mode, setMode] = useState<UploadMode>('single');
  const [ownerId, setOwnerId] = useState('');
  const [items, dispatch] = useReducer(queueReducer, []);
  const filesRef = useRef(new Map<string, File>());
  const settingsRef = useRef(new Map<string, UploadSettings>());
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
      const file = filesRef.current.get(item.id);
      const settings = settingsRef.current.get(item.id);
      if (!file || !settings) continue;
      runningRef.current.add(item.id);
      dispatch({ type: 'start', id: item.id });
      uploadOne(api, file, settings, ctxRef.current, (p) => dispatch({ type: 'progress', id: item.id, progress: p }), abortRef.current.signal)
        .then(
          (signed) => ({ signed, error: null }),
          (error: unknown) => ({ signed: null, error }),
        )
        .then(({ signed, error }) => {
          runningRef.current.delete(item.id);
          filesRef.current.delete(item.id);
          if (signed) dispatch({ type: 'done', id: item.id, uploadId: signed.upload_id });
          else if (!(error instanceof DOMException && error.name === 'AbortError')) {
            dispatch({ type: 'failed', id: item.id, message: uploadFailureText(error) });
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
        if (item.state === 'waiting') {
          filesRef.current.set(item.id, files[i]!);
          settingsRef.current.set(item.id, settings);
        }
      });
      dispatch({ type: 'add', items: newItems });
    },
    [mode, receiptType, ownerId, selfId],
  );

  const busy = summary.active > 0;

  return (
    <Modal title="Upload documents" onClose={onClose} testId="upload-modal">
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
          input={{ name: 'files', testId: 'upload-input', accept: ACCEPT_ATTRIBUTE, multiple: true }}
          onFiles={addFiles}
        >
          <DocIcon name="cloud" size={34} />
          <strong>Drag and drop files here</strong>
          <span>
            or <span className="dropzone-link">click to choose</span>
          </span>
          <small className="muted">JPG and PNG up to 10 MB · PDF and office documents up to 30 MB</small>
        </Dropzone>
        {allCompanies && <p className="field-hint">In the all-companies view uploads go to Unassigned; choose their company there.</p>}

        {items.length > 0 && (
          <section className="upload-results" aria-live="polite">
            <h3 className="upload-results-title" data-testid="upload-summary">
              {uploadSummary(summary.total, summary.failures)}
            </h3>
            <ul className="upload-list">
              {items.map((item) => (
                <ItemCard key={item.id} item={item} />
              ))}
            </ul>
          </section>
        )}

        <div className="modal-actions">
          {summary.successes > 0 && !busy && (
            <Link className="btn btn-secondary" to="/receipts/processing" onClick={onClose}>
              <span className="btn-label">Open In Processing</span>
            </Link>
          )}
          <Button onClick={onClose} variant={busy ? 'secondary' : 'primary'}>
            {busy ? 'Cancel' : 'Done'}
          </Button>
        </div>
      </div>
    </Modal>
  );
}
