import { describe, expect, it } from 'vitest';
import { checkProjectDescription, checkProjectName, checkVaultFileName } from './vault.ts';

describe('vault §5 rules', () => {
  it('project name: required, at most 30 characters counted as people count them', () => {
    expect(checkProjectName('')).toBe('required');
    expect(checkProjectName('   ')).toBe('required');
    expect(checkProjectName('a'.repeat(30))).toBeNull();
    expect(checkProjectName('a'.repeat(31))).toBe('lt');
    expect(checkProjectName('密'.repeat(30))).toBeNull();
    expect(checkProjectName('😀'.repeat(30))).toBeNull();
    expect(checkProjectName('😀'.repeat(31))).toBe('lt');
    expect(checkProjectName(`  ${'a'.repeat(30)}  `)).toBeNull();
  });
  it('description: optional, at most 200', () => {
    expect(checkProjectDescription('')).toBeNull();
    expect(checkProjectDescription('x'.repeat(200))).toBeNull();
    expect(checkProjectDescription('x'.repeat(201))).toBe('lt');
  });
  it('file name is required', () => {
    expect(checkVaultFileName(' ')).toBe('required');
    expect(checkVaultFileName('recipe.docx')).toBeNull();
  });
});
