/**
 * Demo data of the platform admin area: two more customer accounts (each with its own company), so the
 * demo account — a platform admin locally — sees several rows, owners and quotas on /admin.
 */
import type { LocalStack } from './stack';
import { registerUser } from './seed';

export const DEMO_CUSTOMERS = [
  {
    email: 'rasa@baltic-foods.example',
    password: 'Demo12345',
    name: 'Rasa',
    surname: 'Petraitė',
    company: 'Baltic Foods UAB',
    company_code: '304112233',
  },
  {
    email: 'jonas@nordic-parts.example',
    password: 'Demo12345',
    name: 'Jonas',
    surname: 'Kazlauskas',
    company: 'Nordic Parts UAB',
    company_code: '305998877',
  },
] as const;

export async function seedAdminDemo(stack: LocalStack): Promise<void> {
  for (const customer of DEMO_CUSTOMERS) await registerUser(stack, { ...customer });
}
