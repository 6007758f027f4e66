import type { SeedUser } from './seed-data.js';

// The people who have sat the demo exam (demo-attempts.ts), so the marking queue, the report and
// the learner statistics have a class to show: most in the training department's groups and one
// in 研发部, which the demo teacher's data scope covers (seed-data.ts), and one in 市场部, which
// only the administrator sees. Learners like learner1..3, with the same password; they come with
// the demo catalogue.

export const DEMO_CANDIDATES: readonly SeedUser[] = [
  { username: 'chenjing', nickName: '陈静', dept: '学员服务组', roles: ['learner'], gender: '女', email: 'chenjing@example.com', phone: '13800000011' },
  { username: 'liuyang', nickName: '刘洋', dept: '学员服务组', roles: ['learner'], gender: '男', email: 'liuyang@example.com', phone: '13800000012' },
  { username: 'zhouxinran', nickName: '周欣然', dept: '学员服务组', roles: ['learner'], gender: '女', email: 'zhouxinran@example.com', phone: '13800000013' },
  { username: 'sunhao', nickName: '孙浩', dept: '学员服务组', roles: ['learner'], gender: '男', email: 'sunhao@example.com', phone: '13800000014' },
  { username: 'zhengyutong', nickName: '郑雨桐', dept: '讲师组', roles: ['learner'], gender: '女', email: 'zhengyutong@example.com', phone: '13800000015' },
  { username: 'huangzhiqiang', nickName: '黄志强', dept: '讲师组', roles: ['learner'], gender: '男', email: 'huangzhiqiang@example.com', phone: '13800000016' },
  { username: 'linfeng', nickName: '林峰', dept: '研发部', roles: ['learner'], gender: '男', email: 'linfeng@example.com', phone: '13800000017' },
  { username: 'heqian', nickName: '何倩', dept: '市场部', roles: ['learner'], gender: '女', email: 'heqian@example.com', phone: '13800000018' },
];
