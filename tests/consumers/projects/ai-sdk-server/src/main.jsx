// As Vite's React template has it (`npm create vite@latest -- --template react`); the test
// writes src/App.jsx from the README.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import App from "./App.jsx";

createRoot(document.getElementById("root")).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
