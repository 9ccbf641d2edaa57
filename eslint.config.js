// Flat config: typescript-eslint's type-aware rules over every TypeScript source.
import js from '@eslint/js';
import eslintConfigPrettier from 'eslint-config-prettier/flat';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'client/dist/', 'node_modules/', '.tools/', '.run/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['**/*.test.ts', 'test/**', 'bench/**'],
    rules: {
      // Tests and benchmarks read parsed JSON bodies; asserting on them is the point.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    // The pure `evolve*` is the fold everyone calls; the in-place forms are the writer's hot loop's.
    files: ['**/*.ts'],
    ignores: ['projector/write/foldEvents.ts', 'projector/evolve/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/evolve/evolveCompetition.ts', '**/evolve/evolvePerson.ts', '**/evolve/evolveClub.ts'],
              importNames: ['evolveCompetitionInPlace', 'evolvePersonInPlace', 'evolveClubInPlace'],
              message: 'Call the pure evolve* from projector/evolve/index.ts; the in-place forms belong to foldEvents.',
            },
          ],
        },
      ],
    },
  },
  {
    // Orchestration reads as a list of named steps: a production function that outgrows a screen
    // is split by meaning (issue 27). Tests and benchmarks tell a story top to bottom and are exempt.
    files: ['api/**/*.ts', 'projector/**/*.ts', 'services/**/*.ts', 'schemas/**/*.ts', 'generator/**/*.ts', 'client/**/*.ts'],
    ignores: ['**/*.test.ts', 'client/schema.ts', 'client/dist/**'],
    rules: { 'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }] },
  },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
  // Layout is Prettier's (`npm run format`; `npm run lint` checks it): no ESLint rule may disagree.
  eslintConfigPrettier,
);
