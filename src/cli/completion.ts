import type { Command, Option } from 'commander'

/*
 * `infradesk completion bash|zsh|fish`: scripts generated from the same command table that
 * parses the arguments (the commander tree), so a new command or option completes without
 * anyone editing a script. Each knows: the command words at each level, each command's options
 * (the global ones everywhere), an option's fixed choices after it, an argument's choices.
 */

export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const
export type CompletionShell = (typeof COMPLETION_SHELLS)[number]

/** One command of the tree: its words from the top, its sub-commands, options and choices. */
interface CommandNode {
  path: string[]
  subcommands: string[]
  options: string[]
  /** Fixed values after an option (`--format pem`). */
  optionChoices: Map<string, string[]>
  /** Fixed values of its first argument (`call OPERATION`). */
  argumentChoices: string[]
  /** Options that take a value (fish needs to know). */
  valueOptions: Set<string>
}

function flagsOf(option: Option): string[] {
  return [option.long, option.short].filter((flag): flag is string => flag !== undefined)
}

function walk(command: Command, path: string[], globals: readonly Option[]): CommandNode[] {
  const visible = (options: readonly Option[]) => options.filter((option) => !option.hidden)
  const own = visible(command.options)
  const options = [...own, ...visible(globals)]
  const optionChoices = new Map<string, string[]>()
  const valueOptions = new Set<string>()
  for (const option of options) {
    const takesValue = option.required || option.optional
    for (const flag of flagsOf(option)) {
      if (takesValue) valueOptions.add(flag)
      if (option.argChoices !== undefined) optionChoices.set(flag, option.argChoices)
    }
  }
  const children = command.commands.filter((child) => child.name() !== 'help')
  const node: CommandNode = {
    path,
    subcommands: children.map((child) => child.name()),
    options: [...options.flatMap(flagsOf), '--help'],
    optionChoices,
    argumentChoices: command.registeredArguments[0]?.argChoices ?? [],
    valueOptions,
  }
  // The program's own options are the global ones: offered after every command's words too.
  const inherited =
    path.length === 0 ? own.filter((option) => option.long !== '--version') : globals
  return [node, ...children.flatMap((child) => walk(child, [...path, child.name()], inherited))]
}

export function completionScript(program: Command, shell: CompletionShell): string {
  const nodes = walk(program, [], [])
  const name = program.name()
  if (shell === 'fish') return fishScript(name, nodes)
  return shellScript(name, nodes, shell)
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`

/** bash and zsh share one walk over the words typed so far; only the last step differs. */
function shellScript(name: string, nodes: CommandNode[], shell: 'bash' | 'zsh'): string {
  const fn = `_${name.replace(/[^A-Za-z0-9_]/g, '_')}_complete`
  const key = (node: CommandNode) => quote(node.path.join(' '))
  const knownPaths = nodes
    .filter((node) => node.path.length > 0)
    .map((node) => quote(node.path.join(' ')))
    .join('|')
  const wordCases = nodes
    .map((node) => {
      const words = [...node.subcommands, ...node.argumentChoices, ...node.options].join(' ')
      return `    ${key(node)}) opts=${quote(words)} ;;`
    })
    .join('\n')
  const choiceCases = nodes
    .flatMap((node) =>
      [...node.optionChoices].map(
        ([flag, choices]) =>
          `    ${quote(`${node.path.join(' ')}|${flag}`)}) opts=${quote(choices.join(' '))} ;;`,
      ),
    )
    .join('\n')
  const body = `
  local path="" word candidate opts="" i
  for ((i = 1; i < cword; i++)); do
    word="\${typed[i]}"
    case "$word" in -*) continue ;; esac
    candidate="\${path:+$path }$word"
    case "$candidate" in ${knownPaths || "''"}) path="$candidate" ;; esac
  done
  case "$path|$prev" in
${choiceCases || '    __none__) ;;'}
  esac
  if [ -z "$opts" ]; then
    case "$path" in
${wordCases}
    esac
  fi`
  if (shell === 'bash') {
    return `# bash completion for ${name} (source it, or put it in bash-completion's folder)
${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" cword=$COMP_CWORD
  local -a typed=("\${COMP_WORDS[@]}")
${body}
  COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -F ${fn} ${name}
`
  }
  return `#compdef ${name}
# zsh completion for ${name} (put it in a folder of $fpath as _${name}, or source it)
${fn}() {
  local cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}" cword=$((CURRENT - 1))
  local -a typed=("\${(@)words[1,-1]}")
  setopt localoptions ksharrays
${body}
  compadd -- \${=opts}
}
compdef ${fn} ${name}
`
}

function fishScript(name: string, nodes: CommandNode[]): string {
  const lines = [`# fish completion for ${name} (save as ~/.config/fish/completions/${name}.fish)`]
  lines.push(`complete -c ${name} -f`)
  for (const node of nodes) {
    const condition =
      node.path.length === 0
        ? `__fish_use_subcommand`
        : `__fish_seen_subcommand_from ${node.path.at(-1)}` +
          (node.subcommands.length > 0
            ? `; and not __fish_seen_subcommand_from ${node.subcommands.join(' ')}`
            : '')
    const when = `-n ${quote(condition)}`
    for (const sub of node.subcommands) lines.push(`complete -c ${name} ${when} -a ${quote(sub)}`)
    if (node.argumentChoices.length > 0) {
      lines.push(`complete -c ${name} ${when} -a ${quote(node.argumentChoices.join(' '))}`)
    }
    for (const flag of node.options.filter((option) => option.startsWith('--'))) {
      const choices = node.optionChoices.get(flag)
      const value = node.valueOptions.has(flag)
        ? choices
          ? ` -x -a ${quote(choices.join(' '))}`
          : ' -r'
        : ''
      lines.push(`complete -c ${name} ${when} -l ${flag.slice(2)}${value}`)
    }
  }
  return `${lines.join('\n')}\n`
}
