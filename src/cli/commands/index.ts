import type { Command } from '../command';
import { games } from './games';
import { show } from './show';
import { solveCommand } from './solve';
import { verify } from './verify';
import { winrateCommand } from './winrate';
import { reportCommand } from './report';
import { mergeCommand } from './merge';

/** Every command of the CLI, in the order `patience --help` lists them. See command.ts to add one. */
export const COMMANDS: readonly Command[] = [games, show, verify, solveCommand, winrateCommand, reportCommand, mergeCommand];
