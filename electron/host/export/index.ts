export { buildIncidentExport, previewRedactions, type IncidentExport, type RedactionPreview } from './build-export';
export type { IncidentDocument, RedactionSummary, ExportLease, ExportProcess } from './document';
export { EXPORT_FORMAT, touchesWindow } from './document';
export * from './incident-input';
export { verifyExport, canonicalJson, MANIFEST_SECTIONS, type Manifest } from './manifest';
export { redactionKinds, type RedactionHit, type RedactionKind, type RedactionOptions } from './redact';
