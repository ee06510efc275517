/**
 * clipanion's Cli with svc's help and error conventions:
 * - option values are named after their option (`--schema <schema>`), not numbered (`--schema #0`);
 * - a command's usage line lists its required options (`svc compare --old <old> --new <new> [options]`);
 * - a failure outside an SvcCommand is one line, not a stack trace or the whole usage text.
 */
import { Cli, type BaseContext, type CommandClass } from 'clipanion';
import { oneLine } from './failure';

type UsageOptions = Parameters<Cli<BaseContext>['usage']>[1];

export class SvcCli extends Cli<BaseContext> {
  /** Option values named before clipanion pads the option column of --help, so the descriptions line up. */
  protected override getUsageByRegistration(...args: Parameters<Cli<BaseContext>['getUsageByRegistration']>): ReturnType<Cli<BaseContext>['getUsageByRegistration']> {
    const usage = super.getUsageByRegistration(...args);
    return { ...usage, options: usage.options.map((option) => ({ ...option, definition: namePlaceholders(option.definition) })) };
  }

  override error(error: unknown): string {
    return `svc: ${oneLine(error instanceof Error ? error.message : String(error))}\n`;
  }

  override usage(command: Parameters<Cli<BaseContext>['usage']>[0] = null, options?: UsageOptions): string {
    let text = super.usage(command, options);
    const commandClass = command === null ? null : (typeof command === 'function' ? command : (command.constructor as CommandClass<BaseContext>));
    if (commandClass !== null) {
      const shown = this.getUsageByRegistration(commandClass, { inlineOptions: false }).usage;
      const bare = this.getUsageByRegistration(commandClass, { detailed: false }).usage;
      const full = this.getUsageByRegistration(commandClass, { inlineOptions: true }).usage;
      text = text.replace(`$ ${shown}\n`, `$ ${usageLine(bare, full)}\n`);
    } else {
      // The command list shows each command with its required options only; --help shows the rest.
      for (const registered of this.registrations.keys()) {
        const bare = this.getUsageByRegistration(registered, { detailed: false }).usage;
        const full = this.getUsageByRegistration(registered, { inlineOptions: true }).usage;
        text = text.replace(`  ${full}\n`, `  ${usageLine(bare, full)}\n`);
      }
    }
    return namePlaceholders(text);
  }
}

/**
 * `svc register-schema` + `svc register-schema <--x #0> [-j,--json] <schema-id> <schema-file>`
 * → `svc register-schema --x #0 <schema-id> <schema-file> [options]`.
 */
function usageLine(bare: string, full: string): string {
  const required = [...full.matchAll(/<(-[^<>]*)>/g)].map((match) => match[1]!.replace(/^[^ ]*,/, ''));
  const positional = [...full.matchAll(/(?:^| )(<[^-][^<>]*>|\[[^-][^\]]*\]|\.\.\.)/g)].map((match) => match[1]!);
  const hasOptional = /\[-/.test(full);
  return [bare, ...required, ...positional, ...(hasOptional ? ['[options]'] : [])].join(' ');
}

/** `-s,--schema #0` → `-s,--schema <schema>`, wherever clipanion prints an option. */
export function namePlaceholders(text: string): string {
  return text.replace(/(--?[\w-]+)((?: #\d+)+)/g, (_match, name: string, placeholders: string) => {
    const value = name.replace(/^-+/, '');
    return `${name}${placeholders.replace(/ #\d+/g, ` <${value}>`)}`;
  });
}
