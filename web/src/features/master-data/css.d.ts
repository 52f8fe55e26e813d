/** Side-effect imports of a feature's stylesheet (Vite bundles it with the page). */
declare module '*.css';
