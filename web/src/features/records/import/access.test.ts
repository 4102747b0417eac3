import { describe, expect, it } from 'vitest';
import { canExportRecords } from '../export/access';
import { canImportRecords } from './access';

describe('who may import and export records (spec 3, section 6)', () => {
  it('imports with budget write and no RESOURCE_WRITE_DISABLED', () => {
    expect(canImportRecords({ read: true, update: true, restrictions: [] })).toBe(true);
    expect(canImportRecords({ read: true, update: false, restrictions: [] })).toBe(false);
    expect(canImportRecords({ read: true, update: true, restrictions: ['RESOURCE_WRITE_DISABLED'] })).toBe(false);
    // Only the data lock stops it: a settings lock does not.
    expect(canImportRecords({ read: true, update: true, restrictions: ['METADATA_WRITE_DISABLED'] })).toBe(true);
  });

  it('exports with DATA_VIEW and budget read', () => {
    expect(canExportRecords({ privileges: ['DATA_VIEW'] }, { read: true })).toBe(true);
    expect(canExportRecords({ privileges: ['DATA_VIEW'] }, { read: false })).toBe(false);
    expect(canExportRecords({ privileges: ['CLASSIFICATION_VIEW'] }, { read: true })).toBe(false);
  });
});
