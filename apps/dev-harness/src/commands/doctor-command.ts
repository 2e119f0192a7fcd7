import type { CommandRegistrar } from './command-registrar.js';

export const registerDoctorCommand: CommandRegistrar = () => {};
