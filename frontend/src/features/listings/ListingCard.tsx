import { useState } from 'react';
import { formatPrice } from '../../lib/format';
import type { ListingSummary } from './listing-summary';
import './listing-card.css';

/** A listing in a grid: photo, category, title, price in GBP and location; links to its page. */
export function ListingCard({ listing }: { listing: ListingSummary }) {
  const [imageFailed, setImageFailed] = useState(false);
  const showImage = listing.imageUrl !== null && !imageFailed;
  return (
    <a className="card listing-card" href={`/listing/${encodeURIComponent(listing.id)}`} data-testid="listing-card">
      <div className="listing-card__media">
        {showImage ? (
          <img src={listing.imageUrl ?? undefined} alt="" loading="lazy" onError={() => setImageFailed(true)} />
        ) : (
          <span className="listing-card__no-image">{imageFailed ? 'Image unavailable' : 'No photo yet'}</span>
        )}
      </div>
      <div className="listing-card__body">
        {listing.categoryName && <span className="badge">{listing.categoryName}</span>}
        <h3 className="listing-card__title">{listing.title}</h3>
        <p className="listing-card__price">{formatPrice(listing.price)}</p>
        {listing.location && <p className="listing-card__location">{listing.location}</p>}
      </div>
    </a>
  );
}

/** Placeholder with the card's shape while listings load. */
export function ListingCardSkeleton() {
  return (
    <div className="card listing-card" aria-hidden="true" data-testid="listing-skeleton">
      <div className="listing-card__media skeleton" />
      <div className="listing-card__body">
        <div className="skeleton listing-card__skeleton-line" />
        <div className="skeleton listing-card__skeleton-line listing-card__skeleton-line--short" />
      </div>
    </div>
  );
}
