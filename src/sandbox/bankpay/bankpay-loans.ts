import { roundHalfUp } from '../../common/money';

/** The durations, in months, the sandbox bank offers a loan for. */
export const LOAN_DURATIONS = [6, 12, 24, 36, 48, 60] as const;
/** The offer marked preferred when the request names none. */
export const DEFAULT_LOAN_DURATION = 12;
/** Nominal yearly interest in percent, the same for every duration. */
export const LOAN_INTEREST_RATE = 9.9;

const MONTHLY_RATE = LOAN_INTEREST_RATE / 100 / 12;
/** RPMN (the APR): monthly compounding of the nominal rate; with no fees it is the same for every duration. */
const ANNUAL_PERCENTAGE_RATE = roundHalfUp(((1 + MONTHLY_RATE) ** 12 - 1) * 100, 2);

export interface LoanOffer {
  loanInterestRate: number;
  installmentAmount: number;
  loanDuration: number;
  preference: boolean;
  mainPreference: boolean;
  rpmn: number;
  totalAmount: number;
  loanFee: number;
}

/** One offer per duration for borrowing `principal` (the loan amount less the down payment). */
export function loanOffers(principal: number, preferredDuration = DEFAULT_LOAN_DURATION): LoanOffer[] {
  return LOAN_DURATIONS.map((months) => {
    const installmentAmount = roundHalfUp(annuity(principal, months), 2);
    const preferred = months === preferredDuration;
    return {
      loanInterestRate: LOAN_INTEREST_RATE,
      installmentAmount,
      loanDuration: months,
      preference: preferred,
      mainPreference: preferred,
      rpmn: ANNUAL_PERCENTAGE_RATE,
      totalAmount: roundHalfUp(installmentAmount * months, 2),
      loanFee: 0,
    };
  });
}

/** The fixed monthly instalment that repays `principal` with interest in `months` payments. */
function annuity(principal: number, months: number): number {
  return (principal * MONTHLY_RATE) / (1 - (1 + MONTHLY_RATE) ** -months);
}
