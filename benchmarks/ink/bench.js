// Compiles an ink file with inkjs's full compiler and plays random choices, restarting at
// the end; prints one JSON line. Usage: node bench.js STORY.ink STEPS
const fs = require("fs");
const { Compiler } = require("inkjs/full");
const [file, stepsArg] = process.argv.slice(2);
const src = fs.readFileSync(file, "utf8");
let t = process.hrtime.bigint();
const story = new Compiler(src).Compile();
const compile_s = Number(process.hrtime.bigint() - t) / 1e9;
let rnd = 12345;
const rand = () => (rnd = (rnd * 1103515245 + 12345) % 2147483648) / 2147483648;
const want = parseInt(stepsArg || "20000", 10);
let steps = 0;
story.state.storySeed = 1;
t = process.hrtime.bigint();
while (steps < want) {
  while (story.canContinue) story.Continue();
  const ch = story.currentChoices;
  if (ch.length === 0) { story.ResetState(); continue; }
  story.ChooseChoiceIndex(Math.floor(rand() * ch.length));
  steps++;
}
const play_s = Number(process.hrtime.bigint() - t) / 1e9;
console.log(JSON.stringify({ compile_s, steps_per_s: Math.round(steps / play_s) }));
