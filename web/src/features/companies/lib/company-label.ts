/**
 * A company's name in a list of companies to choose from: with its code when another company of the list has the
 * same name (two companies may share a name, never a code), so that the two can be told apart.
 */
export function companyChoiceLabel(company: { company_id: string; name: string; code?: string | null }, companies: ReadonlyArray<{ company_id: string; name: string }>): string {
  const key = company.name.trim().toLocaleLowerCase();
  const shared = companies.some((c) => c.company_id !== company.company_id && c.name.trim().toLocaleLowerCase() === key);
  return shared && company.code ? `${company.name.trim()} (${company.code})` : company.name;
}
