import { errorCatalogue } from '../common/errors/error-catalogue';

export const cliErrors = errorCatalogue({
  /** Commander's complaint about the command line, with a pointer to `--help` for an unknown command. */
  usage: {
    status: 400,
    message: (p: { complaint: string }) =>
      p.complaint + (p.complaint.startsWith('unknown command') ? '; `--help` lists the commands' : ''),
  },
});
