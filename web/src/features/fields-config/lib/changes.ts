/**
 * The Fields configuration screen's state: each capturable datapoint with Visible and Required. SAVE sends only
 * the changed datapoints (id, constraints.required, hidden). A required field is always visible: turning
 * Required on turns Visible on, turning Visible off turns Required off. A field the spec requires (`locked`, with
 * the reason) is shown required and visible with its toggles locked: it never changes.
 */
import type { SchemaField, UpdateSchemaInput } from '../../../../../shared/schemas/content';

export interface FieldSetting {
  id: string;
  label: string;
  section: string;
  visible: boolean;
  required: boolean;
  /** Why its toggles are locked (the server's reason), when they are. */
  locked?: string;
}

export function settingsOf(schema: SchemaField[]): FieldSetting[] {
  const labels = new Map(schema.map((f) => [f.id, f.label]));
  return schema
    .filter((f) => f.category === 'datapoint' && f.configurable)
    .map((f) => ({
      id: f.id,
      label: f.label,
      section: labels.get(f.parent_schema_id ?? '') ?? '',
      visible: !f.hidden,
      required: f.constraints.required,
      ...(f.locked ? { locked: f.locked } : {}),
    }));
}

export function toggle(settings: FieldSetting[], id: string, what: 'visible' | 'required'): FieldSetting[] {
  return settings.map((s) => {
    if (s.id !== id || s.locked) return s;
    if (what === 'visible') return { ...s, visible: !s.visible, required: s.visible ? false : s.required };
    return { ...s, required: !s.required, visible: !s.required ? true : s.visible };
  });
}

export function changedDatapoints(before: FieldSetting[], after: FieldSetting[]): UpdateSchemaInput['datapoints'] {
  const old = new Map(before.map((s) => [s.id, s]));
  return after.flatMap((s) => {
    const o = old.get(s.id);
    if (!o || s.locked || (o.visible === s.visible && o.required === s.required)) return [];
    const change: UpdateSchemaInput['datapoints'][number] = { id: s.id };
    if (o.required !== s.required) change.constraints = { required: s.required };
    if (o.visible !== s.visible) change.hidden = !s.visible;
    return [change];
  });
}

/**
 * The screen-reader name of a field's Visible or Required switch: 'IBAN visible', and for a label that more than one
 * section holds (the supplier's and the customer's Street), the section first: 'Supplier street visible'.
 */
export function switchName(settings: ReadonlyArray<FieldSetting>, setting: FieldSetting, what: 'visible' | 'required'): string {
  const shared = settings.some((s) => s.id !== setting.id && s.label === setting.label);
  return shared && setting.section ? `${setting.section} ${setting.label.toLowerCase()} ${what}` : `${setting.label} ${what}`;
}
