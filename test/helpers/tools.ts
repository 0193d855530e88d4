// Programs some tests run that a machine may lack (curl, script(1), …). Such a test skips there,
// and its title says which program is missing and which Debian package brings it; CI installs
// every one of them first (scripts/ci-shells.mjs), so on CI they run.

/** Why a test that runs `command` skips: "curl is not installed here (apt-get install curl; CI installs it)". */
export function notInstalled(command: string, pkg: string): string {
  return `${command} is not installed here (apt-get install ${pkg}; CI installs it)`;
}

/** A test's or suite's title, saying why it is skipped when `missing` (from notInstalled) is set. */
export function needing(title: string, missing: string | undefined): string {
  return missing === undefined ? title : `${title} (skipped: ${missing})`;
}
