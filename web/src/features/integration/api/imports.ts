import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ImportStatusList, SqlMapping, SqlMappingSaved, SyncImport, SyncRunView } from '../../../../../shared/schemas/master-data-sync';
import { useApi } from '../../../app/api-context';
import { hasUnfinishedRun } from '../lib/outcomes';

/** Master-data imports (SQL, Rivile): their status for the Integration screen. */
export const importsKey = (companyId: string) => ['integration-imports', companyId] as const;

/** How often the status is read again while an import is running or stopped for now (the schedule continues it). */
export const IMPORT_STATUS_POLL_MS = 10_000;

export function useImportStatuses(companyId: string, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: importsKey(companyId),
    queryFn: ({ signal }) => api.get<ImportStatusList>('/company/service/imports', { query: { company_id: companyId }, signal }),
    enabled: enabled && companyId !== '',
    // A run the schedule is continuing shows its outcome when it ends, without a reload.
    refetchInterval: (query) => (hasUnfinishedRun(query.state.data) ? IMPORT_STATUS_POLL_MS : false),
  });
}

/** "Sync now": answers the run (done, failed, or stopped for now: the schedule continues it); the status list is read again. */
export function useSyncNow(companyId: string) {
  const api = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (type: SyncImport) => api.post<SyncRunView>('/company/service/imports/sync', { type }, { query: { company_id: companyId } }),
    onSettled: () => qc.invalidateQueries({ queryKey: importsKey(companyId) }),
  });
}

export function useSaveSqlMapping(companyId: string) {
  const api = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (mapping: SqlMapping) => api.put<SqlMappingSaved>('/company/service/sql/mapping', { mapping }, { query: { company_id: companyId } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: importsKey(companyId) }),
  });
}
