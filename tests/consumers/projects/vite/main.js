import { run } from "./app.js";
run();
