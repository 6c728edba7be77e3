// The YAML parser of team files' front matter (rules, prompt files, skills, agents), in a bundle
// of its own for the extension (see ./libraries.ts): about 115 KB, needed only once a team file is read.
export { parseDocument, LineCounter, YAMLParseError } from "yaml";
