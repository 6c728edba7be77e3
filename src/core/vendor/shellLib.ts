// The bash parser commands are read with, in a bundle of its own for the extension (see ./libraries.ts).
export { forEachChild, parse } from "unbash";
