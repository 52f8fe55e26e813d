/**
 * The edit screen's actions wired to the documents domain and the master data, for every handler that confirms
 * documents: POST /receipt/{id} (one document) and POST /receipts/bulk's send (the list's Send).
 */
import { applyEditAction, assertConfirmable, type ConfirmLearning, type StatusChanger } from '../../core/content/edit';
import type { EditMasterData } from '../../core/content/edit-master-data';
import type { ContentPorts } from '../../core/content/ports';
import { changeStatus, convertType, setDocumentFields } from '../../core/documents/workflow';
import type { SendConfirm } from '../../core/integrations/export';
import { ensureStakeholder, setStakeholderCategory, setStakeholderDateFormat } from '../../core/master-data/stakeholders';
import type { Deps } from '../../runtime/deps';
import type { Logger } from '../../runtime/logger';
import { contentPorts } from '../receipts/content-ports';

export interface EditWiring {
  ports: ContentPorts;
  workflow: StatusChanger;
  learning: ConfirmLearning;
  masterData: EditMasterData;
}

export function editWiring(deps: Deps, log: Logger): EditWiring {
  return {
    ports: contentPorts(deps),
    workflow: {
      changeStatus: (cc, id, status, version) => changeStatus(deps, cc, id, status, version),
      convertType: (cc, id, type, version) => convertType(deps, cc, id, type, version),
      setNotes: (cc, id, notes, version) => setDocumentFields(deps, cc, id, { notes }, 'Notes changed', version),
    },
    learning: { layouts: deps.layouts, log },
    masterData: {
      store: deps.masterData,
      setMasterData: (c, id, patch, history, version) => setDocumentFields(deps, c, id, patch, history, version),
      ensureStakeholder: (companyId, type, input) => ensureStakeholder(deps, companyId, type, input),
      setDateFormat: (stakeholder, format) => setStakeholderDateFormat(deps, stakeholder, format),
      setCategory: (stakeholder, categoryId) => setStakeholderCategory(deps, stakeholder, categoryId),
    },
  };
}

/** CONFIRM as the edit screen makes it, for documents confirmed from the list. */
export function sendConfirm(w: EditWiring): SendConfirm {
  return {
    confirm: (caller, id, version) => applyEditAction(w.ports, w.workflow, caller, id, { version }, true, w.learning, w.masterData),
    check: (caller, id) => assertConfirmable(w.ports, caller, id),
  };
}
