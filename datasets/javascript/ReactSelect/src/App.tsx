import { useState } from 'react';
import { MultiSelect } from './components/MultiSelect';
import type { SelectOption } from './types';

const LANGUAGES: SelectOption[] = [
  { value: 'ts', label: 'TypeScript' },
  { value: 'js', label: 'JavaScript' },
  { value: 'css', label: 'CSS', disabled: true },
  { value: 'py', label: 'Python' },
  { value: 'go', label: 'Go' },
  { value: 'rs', label: 'Rust', description: 'Systems language' },
  { value: 'kt', label: 'Kotlin' },
  { value: 'swift', label: 'Swift' },
];

interface City {
  id: number;
  name: string;
  country: string;
}

async function searchCities(query: string, signal: AbortSignal): Promise<SelectOption<number>[]> {
  const response = await fetch(`/api/cities?q=${encodeURIComponent(query)}`, { signal });
  if (!response.ok) throw new Error(`Search failed (${response.status})`);
  const cities: City[] = await response.json();
  return cities.map((city) => ({ value: city.id, label: city.name, description: city.country }));
}

export function App() {
  const [languages, setLanguages] = useState<string[]>(['ts']);
  const [cities, setCities] = useState<number[]>([]);

  return (
    <main className="demo">
      <h1>MultiSelect</h1>
      <MultiSelect
        label="Languages"
        options={LANGUAGES}
        value={languages}
        onChange={setLanguages}
        maxSelected={3}
      />
      <p>Selected: {languages.length ? languages.join(', ') : 'none'}</p>

      <MultiSelect<number>
        label="Cities"
        loadOptions={searchCities}
        value={cities}
        onChange={setCities}
        minQueryLength={2}
        placeholder="Type a city"
        renderOption={(option, state) => <span className={state.active ? 'city city--active' : 'city'}>{option.label}</span>}
      />
    </main>
  );
}
