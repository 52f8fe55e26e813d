// Lint rules, including the import boundaries of docs/decisions.md ("Layout and boundaries").
import tseslint from 'typescript-eslint';

const restrict = (patterns, message) => ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }];

export default tseslint.config(
  { ignores: ['node_modules/**', '.tmp/**', 'cdk.out/**', 'web/dist/**', '.local/**', 'test/e2e/output/**', '**/*.d.ts', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(['**/lambdas/**', '**/web/**', '**/infra/**', '**/scripts/**'], 'shared/ imports nothing of the other parts') },
  },
  {
    // Core may name the shapes of AWS responses (type-only imports), never call an SDK client.
    files: ['lambdas/core/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/adapters/**', '**/runtime/**'], message: 'core holds plain business rules: no adapters or runtime' },
            { group: ['aws-lambda', '@aws-sdk/*'], allowTypeImports: true, message: 'core may import AWS types only, never SDK clients' },
          ],
        },
      ],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restrict(
        ['**/lambdas/**', '**/infra/**', '**/scripts/**', '**/shared/routes', '**/shared/table'],
        'web imports only shared/schemas, shared/constants, shared/errors and shared/status',
      ),
    },
  },
  {
    files: ['infra/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(['**/web/src/**', '**/lambdas/core/**', '**/lambdas/adapters/**'], 'infra reads the route table and table shape from shared/') },
  },
);
