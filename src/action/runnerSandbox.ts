/**
 * What a workflow must do before the action for the OS sandbox to run on a GitHub-hosted Linux
 * runner. Ubuntu 24.04 (ubuntu-latest) may lack bubblewrap and socat, and its AppArmor policy
 * (kernel.apparmor_restrict_unprivileged_userns=1) stops bubblewrap from making the user
 * namespace it needs. The runner is a throwaway machine, so the examples lift the restriction.
 */
export const RUNNER_SANDBOX_STEP = [
  "- name: OS sandbox",
  "  run: |",
  "    sudo apt-get update -qq && sudo apt-get install -y -qq bubblewrap socat",
  "    sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 || true",
];

/** The log line when the sandbox cannot start on the runner: why, what that costs, and the step that fixes it. */
export function runnerSandboxUnavailableLine(problem: string, platform: NodeJS.Platform = process.platform): string {
  const consequence = `The OS sandbox cannot run on this runner (${problem}); the task may read and write files but no command will run.`;
  if (platform !== "linux")
    return `${consequence} Run the job on a Linux runner (runs-on: ubuntu-latest) for commands to run in the sandbox.`;
  return [
    `${consequence} To run commands, add this step before the Fathom step (see examples/github/); on ubuntu-latest (24.04) both lines are needed, and a self-hosted runner needs the same (or an AppArmor profile that gives /usr/bin/bwrap "userns"):`,
    ...RUNNER_SANDBOX_STEP.map((line) => `    ${line}`),
  ].join("\n");
}
