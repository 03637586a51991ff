const USERS_URL = 'https://jsonplaceholder.typicode.com/users';

// Loads every user; the API has no paging for this resource.
export async function fetchUsers() {
  const response = await fetch(USERS_URL);
  if (!response.ok) {
    throw new Error(`Request failed with status ${response.status}`);
  }
  return response.json();
}
