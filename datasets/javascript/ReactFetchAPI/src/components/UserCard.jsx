export default function UserCard({ user }) {
  return (
    <li className="user-card">
      <h2>{user.name}</h2>
      <a href={`mailto:${user.email}`}>{user.email}</a>
      <p>{user.company.name}</p>
      <a href={`http://${user.website}`} target="_blank" rel="noreferrer">
        {user.website}
      </a>
    </li>
  );
}
