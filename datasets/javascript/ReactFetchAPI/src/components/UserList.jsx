import UserCard from './UserCard';

export default function UserList({ users }) {
  if (users.length === 0) {
    return <p className="status">No users found.</p>;
  }

  return (
    <ul className="user-list">
      {users.map((user) => (
        <UserCard key={user.id} user={user} />
      ))}
    </ul>
  );
}
