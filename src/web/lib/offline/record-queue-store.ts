// The listening records waiting for the network, in IndexedDB: they outlive a reload or a
// closed tab, so a play heard offline is sent when the app is next online.

const DB_NAME = 'canto-offline';
const STORE = 'records';

export interface KeyedStore<T extends { key: string }> {
  put(value: T): Promise<void>;
  get(key: string): Promise<T | undefined>;
  all(): Promise<T[]>;
  delete(key: string): Promise<void>;
}

let opening: Promise<IDBDatabase> | null = null;

function open(): Promise<IDBDatabase> {
  opening ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'key' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => {
      opening = null;
      reject(request.error ?? new Error('IndexedDB unavailable'));
    };
  });
  return opening;
}

async function run<R>(mode: IDBTransactionMode, act: (s: IDBObjectStore) => IDBRequest<R>) {
  const db = await open();
  return new Promise<R>((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const request = act(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(request.result);
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB write failed'));
  });
}

/** The queue's IndexedDB store. */
export function indexedDbStore<T extends { key: string }>(): KeyedStore<T> {
  return {
    put: async (value) => void (await run('readwrite', (s) => s.put(value))),
    get: (key) => run('readonly', (s) => s.get(key) as IDBRequest<T | undefined>),
    all: () => run('readonly', (s) => s.getAll() as IDBRequest<T[]>),
    delete: async (key) => void (await run('readwrite', (s) => s.delete(key))),
  };
}
