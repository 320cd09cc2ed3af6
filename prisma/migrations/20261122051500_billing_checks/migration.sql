-- Defence in depth under the billing code's own locking: the database itself refuses a balance
-- that goes negative, holds beyond the balance, or a capture above its hold. Prisma's schema
-- language has no CHECK constraints, so they live only here (Prisma leaves them alone).
ALTER TABLE "credit_balances"
  ADD CONSTRAINT "credit_balances_never_overdrawn"
  CHECK ("promo_micros" >= 0 AND "purchased_micros" >= 0 AND "held_micros" >= 0
         AND "held_micros" <= "promo_micros" + "purchased_micros");

ALTER TABLE "credit_holds"
  ADD CONSTRAINT "credit_holds_amounts_valid"
  CHECK ("amount_micros" >= 0 AND ("captured_micros" IS NULL OR ("captured_micros" >= 0 AND "captured_micros" <= "amount_micros"))),
  ADD CONSTRAINT "credit_holds_settled_when_not_held"
  CHECK (("status" = 'held') = ("settled_at" IS NULL));
