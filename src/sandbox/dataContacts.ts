/**
 * About 600 contact accounts with realistic (Faker, en_AU) companies and people, plus fixed
 * records: ACME01 and its namesakes, a 40-person account, hostile and non-Latin names.
 */
import type { Faker } from '@faker-js/faker';
import type { Random } from './prng.js';
import {
  type AccountType,
  type AddressbookEntryRecord,
  CONTACT_STATUS,
  type ContactRecord,
  type SandboxContact,
} from './types.js';

const RANDOM_CONTACTS = 590;
const STATES = ['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT'];
const TERMS = ['30 Days', '14 Days', '7 Days', 'EOM', '30 Days EOM', 'COD', 'Prepaid'];
const ROLES = [
  'Purchasing Officer',
  'Accounts Payable',
  'Operations Manager',
  'Store Manager',
  'Workshop Supervisor',
  'Director',
  'Sales Representative',
  'Maintenance Planner',
  'Receptionist',
  '',
];
const DEPARTMENTS = [
  'Purchasing',
  'Accounts',
  'Operations',
  'Warehouse',
  'Management',
  'Sales',
  '',
];
/** Salutations that fit a person of each sex; `Dr` and none fit anyone. */
const SALUTATIONS = { female: ['Ms', 'Mrs', 'Dr', ''], male: ['Mr', 'Dr', ''] } as const;

export interface PersonSpec {
  name: string;
  /** Picks a fitting salutation; without it the person gets none or `Dr`. */
  sex?: 'female' | 'male';
  role?: string;
  /** Every phone and e-mail field filled (for redaction demos); otherwise some are empty. */
  complete?: boolean;
}

interface ContactSpec {
  /** A fixed id, below the generated ones (which start above 5000), for examples like `id:123`. */
  clientid?: number;
  code?: string;
  company: string;
  tradingName?: string;
  accountType?: AccountType;
  suspended?: boolean;
  /** Overrides the drawn flag (the draw still happens, so the rest of the data is unchanged). */
  stopcred?: number;
  salesperson?: string | null;
  people?: PersonSpec[];
  peopleCount?: number;
}

export class ContactFactory {
  readonly contacts: SandboxContact[] = [];
  private readonly usedCodes = new Set<string>();
  private nextClientId = 5000;
  private nextPersonId = 90_000;
  private readonly staff: string[];

  constructor(
    private readonly faker: Faker,
    private readonly random: Random,
  ) {
    this.staff = Array.from({ length: 8 }, () => faker.person.fullName());
  }

  private stopCredit(suspended: boolean, fixed: number | undefined): number {
    const drawn = suspended && this.random.chance(0.7) ? 1 : 0;
    return fixed ?? drawn;
  }

  create(spec: ContactSpec): SandboxContact {
    const accountType = spec.accountType ?? this.randomAccountType();
    const suspended = spec.suspended ?? this.random.chance(0.07);
    const domain = `${slug(spec.company)}.com.au`;
    this.nextClientId += this.random.int(1, 4);
    const people =
      spec.people ??
      Array.from({ length: spec.peopleCount ?? this.randomPeopleCount() }, () => {
        const sex = this.faker.person.sexType();
        return { name: this.faker.person.fullName({ sex }), sex };
      });
    const record: ContactRecord = {
      clientid: spec.clientid ?? this.nextClientId,
      code: spec.code !== undefined ? this.claim(spec.code) : this.uniqueCode(spec.company),
      company: spec.company,
      status: suspended ? CONTACT_STATUS.Suspended : CONTACT_STATUS.Active,
      status_label: suspended ? 'Suspended' : 'Active',
      account_type: accountType,
      custgroup_label: this.random.chance(0.3) ? 'Wholesale' : 'General',
      abn: this.random.chance(0.9) ? this.abn() : '',
      address4: this.faker.location.city(),
      state: this.random.pick(STATES),
      telephone: this.faker.phone.number(),
      email: `${this.random.pick(['accounts', 'sales', 'info', 'admin'])}@${domain}`,
      salesperson: spec.salesperson !== undefined ? spec.salesperson : this.randomSalesperson(),
      terms: this.random.pick(TERMS),
      climit: this.random.pick([0, 1000, 5000, 10_000, 25_000, 50_000, 100_000]),
      discount: this.random.pick([0, 0, 0, 2.5, 5, 10, 15]),
      stopcred: this.stopCredit(suspended, spec.stopcred),
      addressbook: people.map((person) => this.person(person, domain)),
    };
    const contact: SandboxContact = {
      record,
      tradingName: spec.tradingName ?? this.tradingName(spec.company),
    };
    this.contacts.push(contact);
    return contact;
  }

  createRandom(count = RANDOM_CONTACTS): void {
    for (let i = 0; i < count; i++) this.create({ company: this.faker.company.name() });
  }

  private person(spec: PersonSpec, domain: string): AddressbookEntryRecord {
    this.nextPersonId += this.random.int(1, 5);
    const local = slug(spec.name, '.') || `contact${this.nextPersonId}`;
    const has = (probability: number) => spec.complete === true || this.random.chance(probability);
    return {
      id: this.nextPersonId,
      salutation: this.random.pick(spec.sex ? SALUTATIONS[spec.sex] : ['Dr', '', '']),
      name: spec.name,
      role: spec.role ?? this.random.pick(ROLES),
      department: this.random.pick(DEPARTMENTS),
      telephone: has(0.7) ? this.faker.phone.number() : '',
      mobile: has(0.6)
        ? `04${this.random.int(10, 99)} ${this.random.int(100, 999)} ${this.random.int(100, 999)}`
        : '',
      email: has(0.85) ? `${local}@${domain}` : '',
      email2: this.random.chance(0.15) ? `${local}@gmail.com` : '',
      status_label: has(0.9) ? 'Active' : 'Inactive',
    };
  }

  private randomAccountType(): AccountType {
    const roll = this.random.next();
    if (roll < 0.55) return 'Customer';
    if (roll < 0.75) return 'Supplier';
    if (roll < 0.9) return 'Customer & Supplier';
    return 'Unclassified';
  }

  private randomPeopleCount(): number {
    const roll = this.random.next();
    if (roll < 0.15) return 0;
    if (roll < 0.55) return this.random.int(1, 3);
    if (roll < 0.85) return this.random.int(4, 8);
    if (roll < 0.97) return this.random.int(9, 20);
    return this.random.int(21, 40);
  }

  private randomSalesperson(): string | null {
    return this.random.chance(0.2) ? null : this.random.pick(this.staff);
  }

  private tradingName(company: string): string {
    if (!this.random.chance(0.25)) return company;
    return `${this.faker.word.adjective()} ${this.random.pick(['Supplies', 'Trading', 'Industrial', 'Services'])}`.replace(
      /^./,
      (c) => c.toUpperCase(),
    );
  }

  private abn(): string {
    const digits = Array.from({ length: 11 }, () => this.random.int(0, 9)).join('');
    return `${digits.slice(0, 2)} ${digits.slice(2, 5)} ${digits.slice(5, 8)} ${digits.slice(8)}`;
  }

  private claim(code: string): string {
    if (this.usedCodes.has(code)) throw new Error(`duplicate sandbox contact code ${code}`);
    this.usedCodes.add(code);
    return code;
  }

  /** ERP-style codes: up to six letters of the name and a two-digit counter (ACME01). */
  private uniqueCode(base: string): string {
    const stem =
      base
        .normalize('NFD')
        .replace(/[^A-Za-z]/g, '')
        .toUpperCase()
        .slice(0, 6) || 'CUST';
    for (let n = 1; ; n++) {
      const code = `${stem}${String(n).padStart(2, '0')}`;
      if (!this.usedCodes.has(code)) {
        this.usedCodes.add(code);
        return code;
      }
    }
  }
}

function slug(text: string, separator = ''): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, separator)
    .replace(/^\.+|\.+$/g, '')
    .slice(0, 30);
}
