import { useEffect, useState } from 'react';
import { fetchUsers } from './api';
import UserList from './components/UserList';

export default function App() {
  const [users, setUsers] = useState([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState(null);

  useEffect(() => {
    let cancelled = false;
    fetchUsers()
      .then((data) => {
        if (!cancelled) setUsers(data);
      })
      .catch((err) => {
        if (!cancelled) setError(err.message);
      })
      .finally(() => {
        if (!cancelled) setLoading(false);
      });
    return () => {
      cancelled = true;
    };
  }, []);

  return (
    <main className="app">
      <h1>Users</h1>
      {loading && <p className="status">Loading users…</p>}
      {error && <p className="status error">Could not load users: {error}</p>}
      {!loading && !error && <UserList users={users} />}
    </main>
  );
}
