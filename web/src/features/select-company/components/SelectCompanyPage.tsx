import { useEffect, useId, useState } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { COMPANY_SELECT_REDIRECT_MS } from '../../../../../shared/constants';
import { useActiveCompanyStore } from '../../../app/active-company';
import { useApi } from '../../../app/api-context';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { messageOf } from '../../../lib/api-error';
import { useActiveCompany } from '../../companies/api/companies';
import { useReceiptCache } from '../../live/use-receipt-cache';
import { receiptOfPayload } from '../../live/lib/cache-updates';
import { useReceiptActions, useReceiptDetail } from '../../receipts/api/receipts';
import { ConfirmDeleteModal } from '../../receipts/components/ConfirmDeleteModal';
import { NO_COMPANY } from '../../receipts/lib/row-rules';
import { companyChoiceLabel } from '../../companies/lib/company-label';
import { backPath, companyChoiceError, editReceiptPath, editStateAfterMove, newReceiptId } from '../lib/select-company';

/**
 * /select-company/{id}?company_id=: the pages of an unassigned document and a Company dropdown. Save gives
 * the document to the chosen company (a new document there, charged to its monthly limit and read only now: In
 * Processing, then To Review or Ready) and opens it after 2.5 s; the edit screen follows the reading live.
 */
export function SelectCompanyPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const api = useApi();
  const info = useInfoPopup();
  const store = useActiveCompanyStore();
  const view = useActiveCompany();
  const cache = useReceiptCache();
  const actions = useReceiptActions();
  const sourceCompany = params.get('company_id') || NO_COMPANY;
  const detail = useReceiptDetail(id, sourceCompany);
  const [choice, setChoice] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [saved, setSaved] = useState<{ receiptId: string; companyId: string } | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [deletePending, setDeletePending] = useState(false);
  const selectId = useId();

  const companyIds = view.companies.map((c) => c.company_id);
  const choiceError = companyChoiceError(choice, companyIds);
  const back = backPath(location.state);

  // after saving, the edited document opens after COMPANY_SELECT_REDIRECT_MS
  useEffect(() => {
    if (!saved) return;
    const t = window.setTimeout(() => {
      store.setCompany(saved.companyId);
      navigate(editReceiptPath(saved.receiptId, saved.companyId), { state: editStateAfterMove(location.state) });
    }, COMPANY_SELECT_REDIRECT_MS);
    return () => window.clearTimeout(t);
  }, [saved, navigate, store, location.state]);

  // A document that has a company (a link kept from before it was assigned, or another company's row) is the edit
  // screen's: this screen's text and Save are for documents uploaded without one.
  const assignedTo = !saved ? detail.data?.company_id || null : null;
  useEffect(() => {
    if (assignedTo) navigate(editReceiptPath(id, assignedTo), { replace: true, state: location.state });
  }, [assignedTo, id, navigate, location.state]);

  const onSave = async () => {
    setSubmitted(true);
    setServerError(null);
    if (choiceError || saving || saved) return;
    setSaving(true);
    try {
      const answer = await api.post<unknown>(
        `/receipts/${encodeURIComponent(id)}/company`,
        { company_id: choice, version: detail.data?.version },
        { query: { company_id: sourceCompany } },
      );
      const newId = newReceiptId(answer);
      if (!newId) throw new Error('Something went wrong');
      // the old id leaves the lists; its pages stay on screen until the new document opens
      cache.applyDelete(id, { keepDetail: true });
      const moved = receiptOfPayload((answer as { receipt?: unknown }).receipt);
      if (moved) cache.applyReceipt(moved);
      const name = view.companies.find((c) => c.company_id === choice)?.name ?? 'the company';
      info.show(`The document has been moved to ${name}.`, 'success');
      setSaved({ receiptId: newId, companyId: choice });
    } catch (err) {
      setServerError(messageOf(err));
    } finally {
      setSaving(false);
    }
  };

  const onDelete = async () => {
    if (!detail.data) return;
    setDeletePending(true);
    try {
      const outcome = await actions.remove([detail.data]);
      if (outcome.failed.length > 0) {
        info.show(messageOf(outcome.failed[0]!.error), 'error');
        return;
      }
      info.show('The document has been deleted.', 'success');
      navigate(back, { replace: true });
    } finally {
      setDeletePending(false);
      setDeleting(false);
    }
  };

  const pages = detail.data?.pages ?? [];
  const showError = submitted ? choiceError : undefined;

  return (
    <div className="select-company" data-testid="select-company-page">
      <div className="select-company-bar">
        <Button variant="ghost" icon={<Icon name="chevronLeft" size={18} />} onClick={() => navigate(back)}>
          Back
        </Button>
        <span className="select-company-file">{detail.data?.original_file_name}</span>
      </div>
      {detail.isPending || assignedTo ? (
        <LoadingBlock label="Loading document" />
      ) : !detail.data ? (
        <p className="notice notice-error">{messageOf(detail.error)}</p>
      ) : (
        <div className="select-company-layout">
          <section className="card select-company-pages" aria-label="Document pages">
            {pages.length === 0 ? (
              <p className="muted">No pages yet</p>
            ) : (
              <ol className="preview-pages">
                {pages.map((page, i) => (
                  <li key={`${page.document}-${page.page}`} className="preview-page">
                    {page.url ? <img src={page.url} alt={`Page ${i + 1} of ${pages.length}`} /> : <div className="preview-missing">The page was not processed</div>}
                    <span className="preview-page-no">
                      {i + 1} / {pages.length}
                    </span>
                  </li>
                ))}
              </ol>
            )}
          </section>
          <section className="card select-company-form" aria-labelledby={`${selectId}-title`}>
            <h2 id={`${selectId}-title`} className="card-title">
              Assign a company
            </h2>
            <p className="muted">This document was uploaded without a company. Choose the company it belongs to: it is read then, and counts in that company&apos;s monthly document limit.</p>
            <div className={`field ${showError || serverError ? 'has-error' : ''}`}>
              <label htmlFor={selectId} className="field-label">
                Company *
              </label>
              <select
                id={selectId}
                name="company_id"
                className="input select"
                value={choice}
                disabled={Boolean(saved) || saving}
                aria-invalid={showError ? true : undefined}
                onChange={(e) => {
                  setChoice(e.target.value);
                  setServerError(null);
                }}
              >
                <option value="">Choose a company</option>
                {view.companies.map((c) => (
                  <option key={c.company_id} value={c.company_id}>
                    {companyChoiceLabel(c, view.companies)}
                  </option>
                ))}
              </select>
              {(showError || serverError) && (
                <p className="field-error" role="alert" data-testid="error-company_id">
                  {showError ?? serverError}
                </p>
              )}
            </div>
            {saved && <p className="notice">Opening the document…</p>}
            <div className="form-actions">
              <Button variant="danger" onClick={() => setDeleting(true)} disabled={saving || Boolean(saved)}>
                Delete
              </Button>
              <Button onClick={() => void onSave()} loading={saving} disabled={Boolean(saved)}>
                Save
              </Button>
            </div>
          </section>
        </div>
      )}
      {deleting && <ConfirmDeleteModal count={1} pending={deletePending} onConfirm={() => void onDelete()} onClose={() => setDeleting(false)} />}
    </div>
  );
}
