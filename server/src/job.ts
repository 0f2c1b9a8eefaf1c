/** Work that runs in the background while the server is up: started when it is ready, stopped when it closes. */
export type Job = { name: string; start(): void; stop(): Promise<void> };
