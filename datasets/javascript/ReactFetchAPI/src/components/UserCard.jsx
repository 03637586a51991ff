import { formatAddress, mapUrl, websiteUrl } from '../format';

export default function UserCard({ user }) {
  return (
    <li className="user-card">
      <header className="user-card__header">
        <h2>{user.name}</h2>
        <span className="user-card__username">@{user.username}</span>
      </header>
      <dl className="user-card__details">
        <dt>E-mail</dt>
        <dd>
          <a href={`mailto:${user.email}`}>{user.email}</a>
        </dd>
        <dt>Phone</dt>
        <dd>{user.phone}</dd>
        <dt>Address</dt>
        <dd>
          {formatAddress(user.address)}
          <br />
          <a href={mapUrl(user.address.geo)} target="_blank" rel="noreferrer">
            Show on map
          </a>
        </dd>
        <dt>Company</dt>
        <dd>
          {user.company.name}
          <br />
          <em>{user.company.catchPhrase}</em>
        </dd>
        <dt>Website</dt>
        <dd>
          <a href={websiteUrl(user.website)} target="_blank" rel="noreferrer">
            {user.website}
          </a>
        </dd>
      </dl>
    </li>
  );
}
