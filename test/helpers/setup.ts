// Runs before every test file. Keeps test output quiet unless a test asks for logs.
process.env.LOG_LEVEL ??= 'silent';
