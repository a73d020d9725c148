import { startTransition, useEffect, useState, type SubmitEvent } from 'react';
import { SELLER_TEXTS, TRADE_RULES } from '@contracts/trust';
import { validateTextFields } from '@contracts/text-rules';
import type { Notify } from '../profile/notice';
import { askBusinessCheck, getSellerDetails, saveSellerDetails, type SellerDetails } from './seller-api';
import { verifiedSinceText } from './trust-badges';

type TradeField = keyof typeof TRADE_RULES;
const TRADE_FIELDS = Object.keys(TRADE_RULES) as TradeField[];
const CHECK_STATE = { pending: 'Waiting for our team', approved: 'Approved', declined: 'Declined' } as const;

/** Seller details (issue 23 §2): private or trade, a trader's business details, and the request for a business check. */
export function SellerPanel({ notify }: { notify: Notify }) {
  const [details, setDetails] = useState<SellerDetails | null>(null);
  const [type, setType] = useState<'private' | 'trade' | ''>('');
  const [values, setValues] = useState<Record<TradeField, string>>({ business_name: '', company_number: '', vat_number: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  // One request at a time: a check asked while a save is on its way would be about the details before it, and
  // staff approving it would verify nothing.
  const [busy, setBusy] = useState(false);
  const whileBusy = async <T,>(work: () => Promise<T>): Promise<T> => {
    setBusy(true);
    try {
      return await work();
    } finally {
      setBusy(false);
    }
  };

  const show = (data: SellerDetails) => {
    setDetails(data);
    setType(data.seller_type ?? '');
    setValues({ business_name: data.business_name ?? '', company_number: data.company_number ?? '', vat_number: data.vat_number ?? '' });
  };
  useEffect(() => {
    // A transition, as the profile's own render (ProfilePage): rendered in slices on a phone.
    void getSellerDetails().then((result) => result.ok && startTransition(() => show(result.data)));
  }, []);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!type) return setErrors({ seller_type: SELLER_TEXTS.chooseType });
    const trimmed = Object.fromEntries(TRADE_FIELDS.map((f) => [f, values[f].trim()])) as Record<TradeField, string>;
    const found: Record<string, string> = type === 'trade' ? { ...validateTextFields(TRADE_RULES, trimmed) } : {};
    if (type === 'trade' && !trimmed.business_name) found['business_name'] = SELLER_TEXTS.businessNameRequired;
    setErrors(found);
    if (Object.keys(found).length) return;
    const body = type === 'trade' ? { seller_type: type, ...trimmed } : { seller_type: type };
    const result = await whileBusy(() => saveSellerDetails(body));
    if (result.ok) {
      show(result.data);
      notify({ kind: 'success', text: 'Seller details saved.' });
    } else {
      // Everything typed stays in the form.
      setErrors(result.fields);
      notify({ kind: 'error', text: result.error });
    }
  };

  const ask = async () => {
    const result = await whileBusy(askBusinessCheck);
    if (result.ok) show(result.data);
    notify(result.ok ? { kind: 'success', text: SELLER_TEXTS.verificationSent } : { kind: 'error', text: result.error });
  };

  if (!details) return null;
  const check = details.business_check;
  return (
    <section className="card" aria-labelledby="seller-details" data-testid="seller-panel">
      <h2 id="seller-details">Seller details</h2>
      <form noValidate onSubmit={onSubmit} aria-label="Seller details">
        <fieldset className="field">
          <legend className="field__label">{SELLER_TEXTS.typeLabel}</legend>
          {(['private', 'trade'] as const).map((choice) => (
            <label key={choice} className="checkbox">
              <input type="radio" name="seller_type" value={choice} checked={type === choice} onChange={() => setType(choice)} />{' '}
              {SELLER_TEXTS[choice]}
            </label>
          ))}
          {errors['seller_type'] && <p className="field__error">{errors['seller_type']}</p>}
        </fieldset>
        {type === 'trade' &&
          TRADE_FIELDS.map((field) => (
            <div className="field" key={field}>
              <label className="field__label" htmlFor={`seller-${field}`}>
                {TRADE_RULES[field].label}
                {field === 'business_name' ? '' : ' (optional)'}
              </label>
              <input
                id={`seller-${field}`}
                name={field}
                className="field__input"
                value={values[field]}
                aria-invalid={errors[field] ? true : undefined}
                aria-describedby={errors[field] ? `seller-${field}-error` : undefined}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  setValues((current) => ({ ...current, [field]: value }));
                }}
              />
              {errors[field] && (
                <p className="field__error" id={`seller-${field}-error`}>
                  {errors[field]}
                </p>
              )}
            </div>
          ))}
        <button type="submit" className="btn btn--small" disabled={busy}>
          Save seller details
        </button>
      </form>
      {details.seller_type === 'trade' && (
        <div className="profile-note">
          {details.business_verified_at ? (
            <p>
              <span className="badge badge--success">✓ {verifiedSinceText(details.business_verified_at)}</span>
            </p>
          ) : (
            <>
              {check && (
                <p data-testid="business-check">
                  Business check: {CHECK_STATE[check.status]}
                  {check.decline_reason ? ` — ${check.decline_reason}` : ''}
                </p>
              )}
              {check?.status !== 'pending' && (
                <button type="button" className="btn btn--outline btn--small" disabled={busy} onClick={() => void ask()}>
                  Ask our team to verify my business
                </button>
              )}
            </>
          )}
        </div>
      )}
    </section>
  );
}
