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
      <header className="app__header">
        <h1>Users</h1>
        <p className="app__subtitle">
          Everyone registered in the demo directory, with their contact details.
        </p>
      </header>
      {loading && <p className="status">Loading users…</p>}
      {error && <p className="status error">Could not load users: {error}</p>}
      {!loading && !error && <UserList users={users} />}
      <footer className="app__footer">
        Data from{' '}
        <a href="https://jsonplaceholder.typicode.com" target="_blank" rel="noreferrer">
          JSONPlaceholder
        </a>
        .
      </footer>
    </main>
  );
}
