import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import type { ValidationIssue } from './validation';

/** An antd form rule from one of our checkers, with the translated message of its issue. */
export function ruleOf<Value>(check: (value: Value) => ValidationIssue | null, t: TFunction): Rule {
  return {
    validator: async (_rule, value: Value) => {
      const issue = check(value);
      if (issue) throw new Error(t(`validation.${issue}`, { ns: 'shell' }));
    },
  };
}
