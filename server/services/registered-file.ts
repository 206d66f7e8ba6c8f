import { isProofStatusGenerated } from '../../core/vault.ts';

/** The row fields of a registered file (an asset, a vault file) joined with its registrant, ledger entry and proof. */
export type RegisteredFileRow = {
  size: number;
  user_id: number;
  real_name: string | null;
  user_name: string;
  credits: number;
  status: number;
  block_height: number | null;
};

/** What an asset and a vault file alike say of their registration: size, who registered it and what it cost, the proof's state, the block. */
export function registrationOf(r: RegisteredFileRow) {
  return {
    size: Number(r.size),
    registrant_user_id: Number(r.user_id),
    registrant_name: r.real_name || r.user_name,
    credits: Number(r.credits),
    proof_status: Number(r.status),
    is_generated: isProofStatusGenerated(Number(r.status)),
    block_height: r.block_height === null ? null : Number(r.block_height),
  };
}
