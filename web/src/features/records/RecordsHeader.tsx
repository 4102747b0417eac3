import type { Classifier } from '@eelarve/shared';
import { FormattedMessage } from 'react-intl';
import { itemText, type ItemIndex } from './model/grouping';

/** The records screen's heading: the sub-budget's name and its classifier values (spec 3, Records screen). */
export function RecordsHeader({ name, values, items }: { name: string; values: ReadonlyArray<{ classifier: Classifier; code: string }>; items: ItemIndex }) {
  return (
    <header className="records-header">
      <h2 className="section-title" data-testid="records-title">
        <FormattedMessage id="records.title" values={{ name }} />
      </h2>
      {values.length > 0 ? (
        <dl className="records-header-values" data-testid="records-header-values">
          {values.map(({ classifier, code }) => (
            <div key={classifier.id} className="records-header-value">
              <dt>{classifier.name}</dt>
              <dd data-testid={`records-header-${classifier.fieldName}`}>{itemText(items.get(classifier.id)?.get(code), code)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </header>
  );
}
