export interface ScenarioContext {
  /** http://127.0.0.1:<port> of the web process under test. */
  baseUrl: string;
  /** The fresh, migrated bench database the web process uses. */
  databaseUrl: string;
}

/** What a setup step may add to the request, e.g. an Authorization header for a key it created. */
export interface ScenarioRequest {
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Scenario {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Runs once before the warm-up; what it returns overrides the fields above. */
  setup?: (context: ScenarioContext) => Promise<ScenarioRequest | undefined>;
}

export const SCENARIOS: Scenario[] = [{ name: 'pricing', method: 'GET', path: '/api/v1/pricing' }];
