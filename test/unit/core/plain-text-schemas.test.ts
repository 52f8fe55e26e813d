/**
 * Typed text refuses control characters and lone UTF-16 surrogates with one field message; the API and the web
 * forms use these very schemas. Letters of any language, emoji, quotes and & < > pass unchanged.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { updateCompanySchema, updateVatAccountSchema } from '../../../shared/schemas/admin';
import { signUpSchema } from '../../../shared/schemas/auth';
import { createCompanySchema } from '../../../shared/schemas/company';
import { editReceiptSchema, updateContentSchema, validateContentSchema } from '../../../shared/schemas/content';
import {
  addItemWordSchema,
  createCategorySchema,
  createItemSchema,
  createStakeholderSchema,
  deleteItemQuerySchema,
  updateCategorySchema,
  updateItemSchema,
  updateStakeholderSchema,
} from '../../../shared/schemas/master-data';
import { uploadDocumentQuerySchema } from '../../../shared/schemas/receipts';
import { inviteSchema, updateCompanyUserSchema } from '../../../shared/schemas/team';
import { TEXT_MSG } from '../../../shared/schemas/text';
import { updateProfileSchema } from '../../../shared/schemas/user';

const MESSAGE = TEXT_MSG.controlChars;
const PLAIN = 'Ąžuolas & "Šilas" <UAB> 😀';
const BAD = ['A\u0000cme', 'A\u0008cme', 'Acme\u001B', 'Acme\uD83D', 'Acme\uDE00x', '\uDE00\uD83DAcme'];

/** The messages of a refused body by path. */
function issues(schema: z.ZodType, body: unknown): Record<string, string> {
  const r = schema.safeParse(body);
  if (r.success) return {};
  return Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
}

/** Each body with `field` set to the value: its base, with the value put at `path`. */
type Case = { name: string; schema: z.ZodType; body: (v: string) => unknown; path: string; out?: (data: unknown) => unknown };

const cases: Case[] = [
  { name: 'PUT content value', schema: updateContentSchema, body: (v) => ({ version: 1, items: [{ id: 'supplier_name', value: v }] }), path: 'items.0.value', out: (d) => (d as { items: { value: string }[] }).items[0]!.value },
  { name: 'content validate value', schema: validateContentSchema, body: (v) => ({ items: [{ id: 'supplier_name', value: v }] }), path: 'items.0.value' },
  { name: 'edit action value', schema: editReceiptSchema, body: (v) => ({ version: 1, items: [{ id: 'supplier_name', value: v }] }), path: 'items.0.value' },
  { name: 'POST /company name', schema: createCompanySchema, body: (v) => ({ company_name: v, code: '302' }), path: 'company_name', out: (d) => (d as { company_name: string }).company_name },
  { name: 'POST /company code', schema: createCompanySchema, body: (v) => ({ company_name: 'UAB', code: v }), path: 'code' },
  { name: 'PUT /company name', schema: updateCompanySchema, body: (v) => ({ name: v, code: '302' }), path: 'name' },
  { name: 'PUT /company code', schema: updateCompanySchema, body: (v) => ({ name: 'UAB', code: v }), path: 'code' },
  { name: 'VAT account', schema: updateVatAccountSchema, body: (v) => ({ vat_account: v.slice(0, 10) }), path: 'vat_account' },
  {
    name: 'sign-up company',
    schema: signUpSchema,
    body: (v) => ({ name: 'Ada', surname: 'Lovelace', company: v, company_code: '302', email: 'ada@example.com', password: 'Secret123', passwordRepeat: 'Secret123', acceptTerms: true }),
    path: 'company',
  },
  { name: 'POST /user name', schema: updateProfileSchema, body: (v) => ({ name: v }), path: 'name', out: (d) => (d as { name: string }).name },
  { name: 'POST /user city', schema: updateProfileSchema, body: (v) => ({ city: v }), path: 'city' },
  { name: 'invitation name', schema: inviteSchema, body: (v) => ({ name: v, surname: 'Lovelace', email: 'ada@example.com', role: 'basic' }), path: 'name' },
  { name: 'PUT /company/users surname', schema: updateCompanyUserSchema, body: (v) => ({ surname: v }), path: 'surname' },
  { name: 'stakeholder name', schema: createStakeholderSchema, body: (v) => ({ type: 'supplier', name: v, code: '302' }), path: 'name', out: (d) => (d as { name: string }).name },
  { name: 'stakeholder code', schema: createStakeholderSchema, body: (v) => ({ type: 'supplier', name: 'UAB', code: v }), path: 'code' },
  { name: 'stakeholder street (edit)', schema: updateStakeholderSchema, body: (v) => ({ id: 's1', street: v }), path: 'street' },
  { name: 'category name', schema: createCategorySchema, body: (v) => ({ name: v }), path: 'name' },
  { name: 'category code (edit)', schema: updateCategorySchema, body: (v) => ({ id: 'c1', category_code: v }), path: 'category_code' },
  { name: 'item name', schema: createItemSchema, body: (v) => ({ name: v }), path: 'name' },
  { name: 'item word', schema: updateItemSchema, body: (v) => ({ name_id: 'pen', words: ['ok', v] }), path: 'words.1', out: (d) => (d as { words: string[] }).words[1] },
  { name: 'POST /item/word', schema: addItemWordSchema, body: (v) => ({ key: 'pen', value: v }), path: 'value' },
  { name: 'upload notes', schema: uploadDocumentQuerySchema, body: (v) => ({ company_id: 'c1', original_file_name: 'a.pdf', size: '10', notes: v }), path: 'notes' },
];

describe('typed text: control characters and lone surrogates', () => {
  it.each(cases)('$name: refused with the field message', ({ schema, body, path }) => {
    for (const bad of BAD) expect(issues(schema, body(bad)), JSON.stringify(bad)).toMatchObject({ [path]: MESSAGE });
  });

  it.each(cases)('$name: plain text passes unchanged', ({ schema, body, out, name }) => {
    const value = name === 'VAT account' ? '2441' : PLAIN;
    const r = schema.safeParse(body(value));
    expect(r.success, JSON.stringify(r.error?.issues)).toBe(true);
    if (out) expect(out(r.data)).toBe(value);
  });

  it('multi-line text keeps tab and line breaks; single-line text refuses them', () => {
    expect(updateContentSchema.safeParse({ version: 1, items: [{ id: 'supplier_address', value: 'Gatvė 1\r\nVilnius\tLT' }] }).success).toBe(true);
    expect(inviteSchema.safeParse({ name: 'Ada', surname: 'Lovelace', email: 'ada@example.com', role: 'basic', message: 'Hello,\n\tjoin us' }).success).toBe(true);
    expect(issues(inviteSchema, { name: 'Ada', surname: 'Lovelace', email: 'ada@example.com', role: 'basic', message: 'Hello\u0000' })).toMatchObject({ message: MESSAGE });
    expect(issues(createCompanySchema, { company_name: 'UAB\tAcme', code: '302' })).toMatchObject({ company_name: MESSAGE });
    expect(issues(updateProfileSchema, { address: 'Gatvė 1\nVilnius' })).toMatchObject({ address: MESSAGE });
    // Spaces around a value are still trimmed, and a tab there is whitespace, not part of the name.
    expect(createStakeholderSchema.parse({ type: 'supplier', name: '\tUAB Ąžuolas ', code: '302' }).name).toBe('UAB Ąžuolas');
  });

  it('a stored name is still found by the delete query, whatever it holds (imports do not pass these schemas)', () => {
    expect(deleteItemQuerySchema.safeParse({ company_id: 'c1', name: 'pen\u0000' }).success).toBe(true);
  });
});
