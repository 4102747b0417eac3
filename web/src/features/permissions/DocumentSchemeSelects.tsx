import { useIntl } from 'react-intl';
import { SelectField } from '../../components/form';
import { useAllDocuments, useDocumentSchemes } from './api';
import { pickValid } from './selection';

/**
 * The document and scheme both permission screens show: the ones named in the query string
 * (documentId, schemaId) while they exist, otherwise the first. `undefined` while loading, `null`
 * when there is none.
 */
export function useDocumentAndScheme(organizationId: string, params: URLSearchParams) {
  const documents = useAllDocuments(organizationId);
  const documentId = pickValid(
    params.get('documentId'),
    documents.data?.map((document) => document.id),
  );
  const schemes = useDocumentSchemes(documentId ?? '');
  const schemeId =
    documentId === null
      ? null
      : pickValid(
          params.get('schemaId'),
          schemes.data?.map((scheme) => scheme.id),
        );
  return { documents, documentId, schemes, schemeId };
}

/**
 * The document and scheme selects of both permission screens' toolbars. The scheme select names
 * the lack of schemes, disabled, when the document has none. Test ids: `{testIdPrefix}-document`
 * and `{testIdPrefix}-scheme`.
 */
export function DocumentSchemeSelects({
  selection: { documents, documentId, schemes, schemeId },
  onChoose,
  testIdPrefix,
}: {
  selection: ReturnType<typeof useDocumentAndScheme>;
  onChoose: (key: 'documentId' | 'schemaId', value: string) => void;
  testIdPrefix: string;
}) {
  const intl = useIntl();
  return (
    <>
      <SelectField
        labelId="permissions.field.document"
        value={documentId ?? ''}
        onChange={(value) => onChoose('documentId', value)}
        options={(documents.data ?? []).map((document) => ({ value: document.id, label: document.name }))}
        disabled={!documents.data?.length}
        testId={`${testIdPrefix}-document`}
      />
      <SelectField
        labelId="permissions.field.scheme"
        value={schemeId ?? ''}
        onChange={(value) => onChoose('schemaId', value)}
        options={
          schemes.data?.length
            ? schemes.data.map((scheme) => ({ value: scheme.id, label: scheme.name }))
            : [{ value: '', label: intl.formatMessage({ id: 'permissions.noSchemes' }) }]
        }
        disabled={!schemes.data?.length}
        testId={`${testIdPrefix}-scheme`}
      />
    </>
  );
}
